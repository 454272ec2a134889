/**
 * project.yaml and the handler tables stay in step with the contract: every
 * proto file is a chaintype; the manifest names one block handler, which
 * src/index.ts exports; every typed event whose proto comment says it changes
 * state ("Changes:") has an entry in a module's table, named by the rule, and
 * no entry names a type the contract lacks. This is the checklist of the
 * README's "Adding an event handler".
 */
import fs from 'fs';
import path from 'path';
import * as protobuf from 'protobufjs';
import { parse as parseYaml } from 'yaml';
import { EVM_MSG_TYPE_URLS, TYPED_EVENT_TYPES } from '../../../src/lib/contract';
import { HANDLERS } from '../../../src/mappings/handlers';

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

/** Full names of the svc events whose proto comment has a "Changes:" line: they change indexed state. */
function stateChangingEvents(): string[] {
  const out: string[] = [];
  for (const file of protoFiles(path.join(ROOT, 'proto/svc'))) {
    const text = fs.readFileSync(file, 'utf8');
    const pkg = /^package\s+([\w.]+);/m.exec(text)![1];
    for (const m of text.matchAll(/((?:^[ \t]*\/\/.*\n)+)^message (Event\w+)/gm)) {
      if (/^\s*\/\/ Changes:/m.test(m[1])) out.push(`${pkg}.${m[2]}`);
    }
  }
  return out.sort();
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

  it('names one block handler, handleBlock, which src/index.ts exports', () => {
    expect(manifest.dataSources).toHaveLength(1);
    expect(handlers).toEqual([{ handler: 'handleBlock', kind: 'cosmos/BlockHandler' }]);
    expect(manifest.dataSources[0].mapping.file).toBe('./dist/index.js');
    const index = fs.readFileSync(path.join(ROOT, 'src/index.ts'), 'utf8');
    expect(index).toContain("export { handleBlock } from './mappings/block';");
  });
});

describe('the handler tables (src/mappings/handlers/)', () => {
  it('have an entry for every typed event whose proto comment says it changes state', () => {
    const changing = stateChangingEvents();
    expect(changing.length).toBeGreaterThan(30);
    expect(Object.keys(HANDLERS.events).sort()).toEqual(changing);
  });

  it('name no type the contract lacks', () => {
    for (const type of Object.keys(HANDLERS.events))
      expect([type, TYPED_EVENT_TYPES.includes(type)]).toEqual([type, true]);
    expect(Object.keys(HANDLERS.messages).sort()).toEqual(['/svc.bridge.v1.MsgBridgeOut', ...EVM_MSG_TYPE_URLS].sort());
  });

  it('call handle<Module><Event> for each typed event', () => {
    for (const [type, handler] of Object.entries(HANDLERS.events)) {
      expect([type, handler.name]).toEqual([type, handlerName(type)]);
    }
    expect(HANDLERS.messages['/svc.bridge.v1.MsgBridgeOut'].name).toBe('handleBridgeMsgBridgeOut');
    for (const url of EVM_MSG_TYPE_URLS) expect(HANDLERS.messages[url].name).toBe('handleEvmMsgEthereumTx');
  });
});
