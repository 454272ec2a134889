/**
 * src/mappings/generated/proto-json.ts (scripts/gen-event-types.js): the committed file is fresh,
 * and its types describe what decodeTypedEvent really returns. A small devnet history is generated
 * in-process; every typed event of its block_results is decoded and checked against the generated
 * type of its event name, read with the TypeScript checker: every key is a field, every required
 * field is present, every value has the field's type (string / string-literal union / number /
 * boolean / array / nested interface / null).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as protobuf from 'protobufjs';
import * as ts from 'typescript';
import { generateHistory } from '../../../devnet/scenario';
import { TYPED_EVENT_TYPES } from '../../../src/lib/contract';
import { decodeTypedEvent, type EventAttribute } from '../../../src/lib/typed-event';
import {
  TYPED_EVENT_NAMES,
  type EventAttested,
  type EventEncumbranceCreated,
  type EventIssued,
  type EventKindPolicySet,
  type EventKindSplit,
  type Kind,
  type Leg,
  type TypedEvents,
} from '../../../src/mappings/generated/proto-json';

const repoRoot = path.join(__dirname, '..', '..', '..');
const script = path.join(repoRoot, 'scripts', 'gen-event-types.js');
const generated = path.join(repoRoot, 'src', 'mappings', 'generated', 'proto-json.ts');

// ---- compile-time assertions (checked by tsc -p tsconfig.json, i.e. npm run lint)
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const typeAssertions: [
  Equal<EventKindSplit['factor'], string>, // uint64
  Equal<EventIssued['kind_id'], number>, // uint32
  Equal<EventIssued['units'], string>, // amount
  Equal<EventAttested['expiry'], string | null>, // Timestamp, null when unset
  Equal<EventKindPolicySet['policy_override'], TypedEvents['svc.asset.v1.EventAssetCreated']['policy']>,
  Equal<
    Kind['class'],
    'KIND_CLASS_UNSPECIFIED' | 'KIND_CLASS_ECONOMIC' | 'KIND_CLASS_INCOME' | 'KIND_CLASS_VOTE' | 'KIND_CLASS_REDEMPTION'
  >,
  Equal<Kind['multiplier'], string>,
  Equal<EventEncumbranceCreated['encumbrance_id'], string>,
  Equal<Leg['coin'], { denom: string; amount: string } | undefined>, // oneof member: optional
  Equal<TypedEvents['svc.rights.v1.EventBundleTransferred']['kind_ids'], number[]>,
] = [true, true, true, true, true, true, true, true, true, true];

describe('generated proto-JSON types', () => {
  it('the committed file is what scripts/gen-event-types.js generates (--check)', () => {
    const run = spawnSync(process.execPath, [script, '--check'], { cwd: repoRoot, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('--check exits 1 on a stale file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'proto-json-'));
    try {
      const stale = path.join(dir, 'proto-json.ts');
      fs.writeFileSync(stale, fs.readFileSync(generated, 'utf8').replace('units: string;', 'units: number;'));
      const run = spawnSync(process.execPath, [script, '--check', '--out', stale], { cwd: repoRoot, encoding: 'utf8' });
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/is stale: run `npm run gen:event-types`/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lists exactly the typed events of the contract', () => {
    expect(typeAssertions.every(Boolean)).toBe(true);
    expect([...TYPED_EVENT_NAMES]).toEqual([...TYPED_EVENT_TYPES]);
    expect(Object.isFrozen(TYPED_EVENT_NAMES)).toBe(true);
  });

  it('has no imports (bundle-safe) and no runtime code besides TYPED_EVENT_NAMES', () => {
    const text = fs.readFileSync(generated, 'utf8');
    expect(text).not.toMatch(/^\s*import\b|\brequire\(/m);
    const source = ts.createSourceFile(generated, text, ts.ScriptTarget.ES2020, true);
    const runtime = source.statements.filter((s) => !ts.isInterfaceDeclaration(s) && !ts.isTypeAliasDeclaration(s));
    expect(runtime).toHaveLength(1);
    expect(ts.isVariableStatement(runtime[0]) && runtime[0].declarationList.declarations[0].name.getText()).toBe(
      'TYPED_EVENT_NAMES',
    );
  });
});

describe('gen-event-types naming and typing (synthetic protos)', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { render } = require('../../../scripts/gen-event-types.js') as { render: (root: protobuf.Root) => string };
  const root = new protobuf.Root();
  for (const source of [
    `syntax = "proto3"; package svc.bridge.v1; import "google/protobuf/timestamp.proto";
     // A route.
     message Route { string id = 1; }
     message Record { string x = 1; }
     message EventX {
       Route r = 1; svc.dex.v1.Route d = 2; map<string, Route> m = 3;
       message Inner { int64 n = 1; sfixed64 f = 2; double g = 3; }
       Inner i = 4; bytes b = 5; repeated uint32 ids = 6; google.protobuf.Timestamp at = 7;
       oneof v { string s = 8; Route route = 9; }
       svc.dex.v1.Side side = 10;
     }`,
    `syntax = "proto3"; package svc.dex.v1; message Route { uint64 hops = 1; } enum Side { SIDE_UNSPECIFIED = 0; SIDE_BUY = 1; }`,
    `syntax = "proto3"; package google.protobuf; message Timestamp { int64 seconds = 1; int32 nanos = 2; }`,
  ])
    protobuf.parse(source, root, { keepCase: true, alternateCommentMode: true });
  root.resolveAll();
  const text = render(root);

  it('prefixes every type of a shared name with its module, keeps unique names bare', () => {
    expect(text).toContain('/** A route. */\nexport interface BridgeRoute {');
    expect(text).toContain('export interface DexRoute {');
    expect(text).not.toMatch(/interface Route\b/);
    expect(text).toContain('export interface BridgeRecord {'); // would shadow the global Record
    expect(text).toContain('export interface EventX_Inner {');
    expect(text).toContain("export type Side = 'SIDE_UNSPECIFIED' | 'SIDE_BUY';");
    expect(text).not.toContain('interface Timestamp');
  });

  it('types fields as proto-JSON', () => {
    for (const field of [
      'r: BridgeRoute | null;',
      'd: DexRoute | null;',
      'm: Record<string, BridgeRoute>;',
      'i: EventX_Inner | null;',
      'b: string;',
      'ids: number[];',
      'at: string | null;',
      's?: string;',
      'route?: BridgeRoute;',
      'side: Side;',
      'n: string;',
      'f: string;',
      'g: number;',
      'hops: string;',
    ])
      expect(text).toContain(`  ${field}\n`);
    expect(text).toContain("'svc.bridge.v1.EventX': EventX;");
  });
});

// ---- the generated types against real devnet events

/** A checker on the generated file alone (ES2020 lib, no @types). */
function loadGeneratedTypes(): { checker: ts.TypeChecker; typedEvents: ts.Type } {
  const program = ts.createProgram([generated], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2020,
    lib: ['lib.es2020.d.ts'],
    types: [],
  });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.length) throw new Error(ts.formatDiagnostics(diagnostics, ts.createCompilerHost({})));
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(generated)!)!;
  const symbol = checker.getExportsOfModule(moduleSymbol).find((s) => s.name === 'TypedEvents')!;
  return { checker, typedEvents: checker.getDeclaredTypeOfSymbol(symbol) };
}

/** Problems of `value` against type `type` (empty when it conforms). */
function mismatches(checker: ts.TypeChecker, value: unknown, type: ts.Type, at: string): string[] {
  const members = type.isUnion() ? type.types : [type];
  const jsType = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  // the value itself only for strings (an enum name the union lacks); JS types keep the list short
  const show = () =>
    `${at}: ${typeof value === 'string' ? JSON.stringify(value) : jsType} is not ${checker.typeToString(type)}`;
  if (members.some((t) => t.flags & (ts.TypeFlags.Unknown | ts.TypeFlags.Any))) return [];
  if (value === null) return members.some((t) => t.flags & ts.TypeFlags.Null) ? [] : [show()];
  switch (typeof value) {
    case 'string':
      return members.some((t) => t.flags & ts.TypeFlags.String || (t.isStringLiteral() && t.value === value))
        ? []
        : [show()];
    case 'number':
      return members.some((t) => t.flags & ts.TypeFlags.NumberLike) ? [] : [show()];
    case 'boolean':
      return members.some((t) => t.flags & ts.TypeFlags.BooleanLike) ? [] : [show()];
    case 'object':
      break;
    default:
      return [show()];
  }
  if (Array.isArray(value)) {
    const array = members.find((t) => checker.isArrayType(t));
    if (!array) return [show()];
    const element = checker.getTypeArguments(array as ts.TypeReference)[0];
    return value.flatMap((v) => mismatches(checker, v, element, `${at}[]`));
  }
  const object = members.find((t) => t.flags & ts.TypeFlags.Object && !checker.isArrayType(t));
  if (!object) return [show()];
  const record = value as Record<string, unknown>;
  const index = checker.getIndexInfoOfType(object, ts.IndexKind.String);
  const problems: string[] = [];
  for (const [key, v] of Object.entries(record)) {
    const prop = object.getProperty(key);
    const fieldType = prop ? checker.getTypeOfSymbol(prop) : index?.type;
    if (!fieldType) problems.push(`${at}.${key}: not a field of ${checker.typeToString(object)}`);
    else problems.push(...mismatches(checker, v, fieldType, `${at}.${key}`));
  }
  for (const prop of checker.getPropertiesOfType(object))
    if (!(prop.flags & ts.SymbolFlags.Optional) && !(prop.name in record))
      problems.push(`${at}.${prop.name}: missing (required in ${checker.typeToString(object)})`);
  return problems;
}

interface RenderedEvent {
  type: string;
  attributes?: EventAttribute[];
}

describe('generated proto-JSON types against real devnet events', () => {
  const seen = new Map<string, number>();
  /** distinct problems (path without heights and array indexes) */
  const problems = new Set<string>();
  const shapes = new Map<string, Set<string>>();

  beforeAll(async () => {
    // 40 blocks × 4 txs, 3 h apart: every typed event type, tx- and block-level (about 1 s)
    const history = await generateHistory({
      seed: 'coverage',
      blocks: 40,
      txsPerBlock: 4,
      startTimeMs: Date.UTC(2026, 0, 1),
      blockIntervalMs: 3 * 3_600_000,
    });
    const { checker, typedEvents } = loadGeneratedTypes();
    for (let height = 1; height <= history.chain.height; height++) {
      const results = JSON.parse(history.chain.block(height)!.resultsJson) as {
        txs_results: { events: RenderedEvent[] }[] | null;
        finalize_block_events: RenderedEvent[] | null;
      };
      const events = [
        ...(results.txs_results ?? []).flatMap((r) => r.events),
        ...(results.finalize_block_events ?? []),
      ];
      for (const e of events) {
        if (!e.type.startsWith('svc.')) continue;
        seen.set(e.type, (seen.get(e.type) ?? 0) + 1);
        const decoded = decodeTypedEvent(e.type, e.attributes ?? []);
        const prop = typedEvents.getProperty(e.type);
        if (!decoded || !prop) {
          problems.add(`${e.type}: ${decoded ? 'no generated type' : 'not decodable'}`);
          continue;
        }
        for (const p of mismatches(checker, decoded, checker.getTypeOfSymbol(prop), e.type)) problems.add(p);
        // which JS types each field took (null / string / number / ...), for the coverage assertions
        for (const [k, v] of Object.entries(decoded)) {
          const key = `${e.type}.${k}`;
          if (!shapes.has(key)) shapes.set(key, new Set());
          shapes.get(key)!.add(v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
        }
      }
    }
  }, 120_000);

  it('the history emits every typed event type of the contract', () => {
    expect([...seen.keys()].sort()).toEqual([...TYPED_EVENT_NAMES]);
  });

  it('every decoded event conforms to its generated type', () => {
    expect([...problems]).toEqual([]);
    expect([...seen.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(100);
  });

  it('exercises the typing rules: 64-bit as string, 32-bit as number, Timestamp string or null, unset message null', () => {
    expect(shapes.get('svc.asset.v1.EventAssetCreated.nonce')).toEqual(new Set(['string'])); // uint64
    expect(shapes.get('svc.evm.v1.EventEthereumTxExecuted.gas_used')).toEqual(new Set(['string'])); // uint64
    expect(shapes.get('svc.settlement.v1.EventSettlementProposed.settlement_id')).toEqual(new Set(['string']));
    expect(shapes.get('svc.asset.v1.EventIssued.kind_id')).toEqual(new Set(['number'])); // uint32
    expect(shapes.get('svc.encumbrance.v1.EventEncumbranceCreated.expiry')).toEqual(new Set(['string', 'null']));
    expect(shapes.get('svc.asset.v1.EventKindPolicySet.policy_override')).toContain('null');
    expect(shapes.get('svc.bridge.v1.EventRouteCreated.route')).toEqual(new Set(['object']));
  });
});
