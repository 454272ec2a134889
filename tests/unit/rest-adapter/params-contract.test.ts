/**
 * rest-adapter/http/params.ts accepts and refuses exactly what the parameter schemas of
 * openapi.yaml do: every parameter whose schema constrains it (pattern, enum, maxLength,
 * integer bounds) is read from the YAML, each is mapped to its parser, and values generated
 * from the schema (fast-check: strings matching the pattern, near misses, enum values and their
 * case variants, integers around the bounds) and arbitrary strings must get the same verdict.
 * A parameter the YAML leaves as a bare string (addresses, route ids, lookup `q`) is checked
 * by the integration tests instead; a new constrained parameter without a parser here fails.
 */
import fs from 'fs';
import path from 'path';
import fc from 'fast-check';
import { parse } from 'yaml';
import {
  parseAssetFilter,
  parseAssetIdParam,
  parseHeight,
  parseKindId,
  parseLimit,
  parseMessageId,
  parseMethod,
  parseNumericId,
  parseSettlementStatus,
  parseTransferStatus,
  parseTxHash,
} from '../../../rest-adapter/http/params';
import { CURSORS, readCursor } from '../../../rest-adapter/paging/cursors';
import { DEFAULT_STATS_LIMIT } from '../../../rest-adapter/paging/limits';
import { decodeEventId } from '../../../rest-adapter/stream/position';

interface ParamSchema {
  type?: string;
  pattern?: string;
  enum?: string[];
  maxLength?: number;
  minimum?: bigint;
  maximum?: bigint;
}

interface Param {
  operation: string;
  in: string;
  name: string;
  schema: ParamSchema;
}

// integers as bigint: bounds such as a uint32 maximum compare exactly
const doc = parse(fs.readFileSync(path.resolve(__dirname, '../../../openapi.yaml'), 'utf8'), { intAsBigInt: true });

type Node = Record<string, unknown>;

function resolve<T>(node: unknown): T {
  let n = node as Node;
  while (typeof n?.$ref === 'string')
    n = (n.$ref as string)
      .slice(2)
      .split('/')
      .reduce((o: Node, k) => o[k] as Node, doc as Node);
  return n as T;
}

interface Operation {
  operationId: string;
  parameters?: unknown[];
}

const params: Param[] = Object.values(doc.paths as Record<string, Record<string, Operation>>).flatMap((item) =>
  Object.values(item).flatMap((op) =>
    (op.parameters ?? []).map((raw) => {
      const p = resolve<{ in: string; name: string; schema: unknown }>(raw);
      return { operation: op.operationId, in: p.in, name: p.name, schema: resolve<ParamSchema>(p.schema) };
    }),
  ),
);

const constrains = (s: ParamSchema) =>
  s.type === 'integer' || s.pattern !== undefined || s.enum !== undefined || s.maxLength !== undefined;

/** The schema's verdict on a raw query or path value. */
function schemaAccepts(s: ParamSchema, v: string): boolean {
  if (s.type === 'integer') {
    // a base-10 integer, as the parameter descriptions say; a sign only where negatives are allowed
    const signed = s.minimum === undefined || s.minimum < 0n;
    if (!(signed ? /^-?[0-9]+$/ : /^[0-9]+$/).test(v)) return false;
    const n = BigInt(v);
    return (s.minimum === undefined || n >= s.minimum) && (s.maximum === undefined || n <= s.maximum);
  }
  if (s.enum && !s.enum.includes(v)) return false;
  if (s.maxLength !== undefined && [...v].length > Number(s.maxLength)) return false;
  return s.pattern === undefined || new RegExp(s.pattern, 'u').test(v);
}

const accepts = (parse: (v: string) => unknown) => (v: string) => {
  try {
    parse(v);
    return true;
  } catch {
    return false;
  }
};

/**
 * The parser of each constrained parameter, keyed `<operationId> <in>:<name>`. `oneWay`: the
 * schema states only a necessary condition (a cursor matching the pattern may still be malformed
 * or another list's), so only values the schema refuses are compared.
 */
const PARSERS: Record<string, { accept: (v: string) => boolean; oneWay?: boolean }> = {};
for (const op of [
  'listBlocks',
  'listTxs',
  'listAssets',
  'listHolders',
  'listDistributions',
  'listAssetEvents',
  'listAccountEvents',
  'listSettlements',
  'listBridgeTransfers',
]) {
  PARSERS[`${op} query:limit`] = { accept: accepts((v) => parseLimit(v)) };
  PARSERS[`${op} query:cursor`] = { accept: accepts((v) => readCursor(CURSORS.blocks, v)), oneWay: true };
}
Object.assign(PARSERS, {
  'getStats query:limit': { accept: accepts((v) => parseLimit(v, DEFAULT_STATS_LIMIT)) },
  'getBlock path:height': { accept: accepts(parseHeight) },
  'listTxs query:method': { accept: accepts(parseMethod) },
  'getTx path:hash': { accept: accepts(parseTxHash) },
  'listHolders path:kind': { accept: accepts(parseKindId) },
  'listSettlements query:status': { accept: accepts(parseSettlementStatus) },
  'getSettlement path:id': { accept: accepts(parseNumericId) },
  'getEncumbrance path:id': { accept: accepts(parseNumericId) },
  'getDelegation path:id': { accept: accepts(parseNumericId) },
  'listBridgeTransfers query:status': { accept: accepts(parseTransferStatus) },
  'listBridgeTransfers query:message_id': { accept: accepts(parseMessageId) },
  'listInvariants query:asset': { accept: accepts(parseAssetFilter) },
  'streamEvents query:asset': { accept: accepts((v) => parseAssetIdParam(v, 'asset')) },
  'streamEvents query:method': { accept: accepts(parseMethod) },
  'streamEvents query:after': { accept: accepts(decodeEventId), oneWay: true },
});
for (const op of [
  'getAsset',
  'getAssetGraph',
  'listHolders',
  'listDistributions',
  'getAssetLiquidation',
  'listAssetEvents',
]) {
  PARSERS[`${op} path:id`] = { accept: accepts((v) => parseAssetIdParam(v)) };
}

/**
 * The one place params.ts is stricter than the schema, on purpose: an integer is read from at
 * most 40 digits (`limit` from at most 3) before its value is compared, so a longer run of
 * leading zeros, or a height of more than 40 digits, is refused (openapi.yaml cannot state a
 * length on an integer). Only such values may differ.
 */
function beyondDigitCap(key: string, v: string): boolean {
  const digits = v.replace(/^-/, '');
  return /^[0-9]+$/.test(digits) && digits.length > (key.endsWith('query:limit') ? 3 : 40);
}

const NEAR_MISS = ['', '-', '.', '/', '_', 'g', 'G', 'x', 'X', 'a', 'A', '0', '9', ' ', '%', 'é', '\u0000'];

/** Every string one edit away from `v`: a character of NEAR_MISS inserted or replacing one, one deleted, or one's case flipped. */
function oneEditAway(v: string): string[] {
  const out: string[] = [];
  for (let at = 0; at <= v.length; at++) {
    for (const c of NEAR_MISS) out.push(v.slice(0, at) + c + v.slice(at), v.slice(0, at) + c + v.slice(at + 1));
    const flipped = v[at]?.toUpperCase() === v[at] ? v[at]?.toLowerCase() : v[at]?.toUpperCase();
    if (flipped !== undefined) out.push(v.slice(0, at) + flipped + v.slice(at + 1));
  }
  return out;
}

/** Values generated from a schema: matching ones, near misses, and anything. */
function valuesFor(s: ParamSchema): fc.Arbitrary<string> {
  const any = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.stringMatching(/^[0-9a-fA-Fx\-+. ]{0,70}$/));
  const parts: fc.Arbitrary<string>[] = [any];
  if (s.type === 'integer') {
    const lo = s.minimum ?? 0n;
    const hi = s.maximum ?? 2n ** 70n;
    parts.push(
      fc.bigInt({ min: lo - 3n, max: hi + 3n }).map(String),
      fc.constantFrom(lo - 1n, lo, lo + 1n, hi - 1n, hi, hi + 1n).map(String),
      fc.tuple(fc.nat(3), fc.bigInt({ min: lo, max: hi })).map(([z, n]) => '0'.repeat(z) + n),
      fc.bigInt({ min: 0n, max: 10n ** 45n }).map(String),
    );
  }
  if (s.pattern !== undefined) {
    const re = new RegExp(s.pattern);
    const matching = fc.stringMatching(re);
    parts.push(
      matching,
      matching.map((v) => v.toUpperCase()),
      matching.map((v) => v.toLowerCase()),
      matching.map((v) => v + 'x'),
      matching.map((v) => v.slice(1)),
      matching.map((v) => ' ' + v),
    );
  }
  if (s.enum) {
    const values = fc.constantFrom(...s.enum);
    parts.push(
      values,
      values.map((v) => v.toUpperCase()),
      values.map((v) => v.toLowerCase()),
      values.map((v) => v + ' '),
    );
  }
  return fc.oneof(...parts);
}

describe('params.ts and the parameter schemas of openapi.yaml', () => {
  const constrained = params.filter((p) => constrains(p.schema));
  const keys = [...new Set(constrained.map((p) => `${p.operation} ${p.in}:${p.name}`))];

  it('every constrained parameter of openapi.yaml has its parser here', () => {
    expect(keys.filter((k) => !PARSERS[k])).toEqual([]);
    expect(Object.keys(PARSERS).filter((k) => !keys.includes(k))).toEqual([]);
  });

  it.each(keys)('%s: the parser accepts exactly what the schema accepts', (key) => {
    const schema = constrained.find((p) => `${p.operation} ${p.in}:${p.name}` === key)!.schema;
    const { accept, oneWay } = PARSERS[key];
    const agree = (v: string) => {
      const bySchema = schemaAccepts(schema, v);
      const byParser = accept(v);
      if (oneWay && bySchema) return true;
      if (bySchema && !byParser && beyondDigitCap(key, v)) return true;
      return bySchema === byParser;
    };
    fc.assert(fc.property(valuesFor(schema), agree), { numRuns: 2000 });
    // around valid values, exhaustively: every value one edit away from a few the schema accepts
    const sampled = fc.sample(valuesFor(schema), 200).filter((v) => schemaAccepts(schema, v));
    const seeds = [...(schema.enum ?? []), ...sampled.slice(0, 5)];
    const disagreements = seeds.flatMap(oneEditAway).filter((v) => !agree(v));
    expect(disagreements.slice(0, 5)).toEqual([]);
  });
});
