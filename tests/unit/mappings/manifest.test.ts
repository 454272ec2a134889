/**
 * project.yaml stays in step with the contract and the mappings: every proto
 * file is a chaintype, every typed event has its handler (named by the rule),
 * every handler exists in src/mappings/<module>.ts and is re-exported by
 * src/index.ts. This is the checklist of docs/indexer.md "Adding an event handler".
 */
import fs from 'fs';
import path from 'path';
import * as protobuf from 'protobufjs';
import { parse as parseYaml } from 'yaml';
import { TYPED_EVENT_TYPES } from '../../../src/lib/contract';

const ROOT = path.resolve(__dirname, '../../..');

interface Handler {
  handler: string;
  kind: string;
  filter?: { type?: string; includeFailedTx?: boolean };
}
interface Manifest {
  runner: { node: { name: string; options?: { historical?: boolean } } };
  network: { chainId: string; endpoint: string[]; chaintypes: Record<string, { file: string; messages: string[] }> };
  dataSources: { kind: string; mapping: { file: string; handlers: Handler[] } }[];
}

/** Typed events the chain emits at BeginBlock: applied by handleChainBlock before the block's txs (see chain.ts). */
const BEGIN_BLOCK_EVENTS = ['svc.bridge.v1.EventEscrowIncomeSwept'];

const manifest = parseYaml(fs.readFileSync(path.join(ROOT, 'project.yaml'), 'utf8')) as Manifest;
const handlers = manifest.dataSources.flatMap((ds) => ds.mapping.handlers);

/** handle<Module><Event>: EventX of svc.<module>.v1 without "Event", a leading repeat of the module word dropped. */
function handlerName(eventType: string): string {
  const [, module, , event] = eventType.split('.');
  const Module = module[0].toUpperCase() + module.slice(1);
  let name = event.replace(/^Event/, '');
  if (new RegExp(`^${Module}[A-Z]`).test(name)) name = name.slice(Module.length);
  return `handle${Module}${name}`;
}

function protoFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? protoFiles(path.join(dir, e.name)) : e.name.endsWith('.proto') ? [path.join(dir, e.name)] : [],
    );
}

function exportedHandlers(): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of fs.readdirSync(path.join(ROOT, 'src/mappings')).filter((f) => f.endsWith('.ts'))) {
    const src = fs.readFileSync(path.join(ROOT, 'src/mappings', file), 'utf8');
    for (const m of src.matchAll(/export async function (handle\w+)\(/g)) out.set(m[1], file.replace(/\.ts$/, ''));
  }
  return out;
}

describe('project.yaml', () => {
  it('runs @subql/node-cosmos 5.4 without historical state on the devnet chain id', () => {
    expect(manifest.runner.node.name).toBe('@subql/node-cosmos');
    expect(manifest.runner.node.options?.historical).toBe(false);
    expect(manifest.network.chainId).toBe('svc-devnet-1');
    expect(manifest.network.endpoint).toEqual(['http://127.0.0.1:26657']);
  });

  it('lists every proto file of proto/ as a chaintype with all its messages', () => {
    const listed = new Map(
      Object.values(manifest.network.chaintypes).map((c) => [path.normalize(path.join(ROOT, c.file)), c.messages]),
    );
    for (const file of protoFiles(path.join(ROOT, 'proto'))) {
      const parsed = protobuf.parse(fs.readFileSync(file, 'utf8'), { keepCase: true });
      const ns = parsed.root.lookup(parsed.package!) as protobuf.Namespace;
      const names = ns.nestedArray.filter((o) => o instanceof protobuf.Type).map((o) => o.name);
      expect([path.relative(ROOT, file), listed.get(file)]).toEqual([path.relative(ROOT, file), names]);
    }
    for (const c of Object.values(manifest.network.chaintypes)) expect(c.file.startsWith('./proto/')).toBe(true);
    expect(listed.size).toBe(protoFiles(path.join(ROOT, 'proto')).length);
  });

  it('has one event handler per typed event, named handle<Module><Event>; BeginBlock events go through the block handler', () => {
    const eventHandlers = handlers.filter((h) => h.kind === 'cosmos/EventHandler');
    const viaBlockHandler = TYPED_EVENT_TYPES.filter((t) => BEGIN_BLOCK_EVENTS.includes(t));
    expect(viaBlockHandler).toEqual(BEGIN_BLOCK_EVENTS);
    expect(eventHandlers.map((h) => h.filter?.type).sort()).toEqual(
      TYPED_EVENT_TYPES.filter((t) => !viaBlockHandler.includes(t)).sort(),
    );
    for (const h of eventHandlers) expect(h.handler).toBe(handlerName(h.filter!.type!));
    const chain = fs.readFileSync(path.join(ROOT, 'src/mappings/chain.ts'), 'utf8');
    for (const t of BEGIN_BLOCK_EVENTS) expect(chain).toContain(`'${t}': ${handlerName(t)},`);
  });

  it('has one block handler and the message handlers with failed txs included', () => {
    expect(handlers.filter((h) => h.kind === 'cosmos/BlockHandler').map((h) => h.handler)).toEqual([
      'handleChainBlock',
    ]);
    const messages = handlers
      .filter((h) => h.kind === 'cosmos/MessageHandler')
      .map((h) => [h.handler, h.filter?.type, h.filter?.includeFailedTx]);
    expect(messages).toEqual([
      ['handleBridgeMsgBridgeOut', '/svc.bridge.v1.MsgBridgeOut', true],
      ['handleEvmMsgEthereumTx', '/cosmos.evm.vm.v1.MsgEthereumTx', true],
      ['handleEvmMsgEthereumTx', '/ethermint.evm.v1.MsgEthereumTx', true],
    ]);
  });

  it('names handlers that src/mappings/<module>.ts exports and src/index.ts re-exports', () => {
    const exported = exportedHandlers();
    const index = fs.readFileSync(path.join(ROOT, 'src/index.ts'), 'utf8');
    for (const h of handlers) {
      const module = exported.get(h.handler);
      expect([h.handler, module !== undefined]).toEqual([h.handler, true]);
      expect(index).toContain(`export * from './mappings/${module}';`);
    }
    for (const ds of manifest.dataSources) expect(ds.mapping.file).toBe('./dist/index.js');
  });
});
