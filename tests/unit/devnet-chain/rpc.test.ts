/**
 * The RPC server over real HTTP on 127.0.0.1 (free port), read by cosmjs'
 * Comet38Client and SigningStargateClient, which assert CometBFT 0.38 shapes.
 */
import { Comet38Client, Tendermint37Client } from '@cosmjs/tendermint-rpc';
import { SigningStargateClient } from '@cosmjs/stargate';
import { toHex } from '@cosmjs/encoding';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { DevnetChain, DevnetRpcServer, headerHash, startRpcServer } from '../../../devnet/chain';
import { svcRegistry } from '../../../src/client/registry';
import { AbciQueryError, ChainQueryClient, queryMethodTypes } from '../../../src/client';
import { ASSET_ID, fixture, signed, T0, transferMsg, FEE, CHAIN_ID } from './helpers';

type Fixture = Awaited<ReturnType<typeof fixture>>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- raw JSON-RPC answers are probed field by field
type AnyJson = any;

async function post(url: string, body: unknown): Promise<{ status: number; json: AnyJson }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

async function get(url: string): Promise<{ status: number; json: AnyJson }> {
  const res = await fetch(url);
  const text = await res.text();
  return { status: res.status, json: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text };
}

describe('devnet RPC with cosmjs Comet38Client', () => {
  let f: Fixture;
  let chain: DevnetChain;
  let server: DevnetRpcServer;
  let client: Comet38Client;

  beforeAll(async () => {
    f = await fixture();
    chain = f.chain;
    chain.produceBlock(T0);
    await chain.checkTx(
      await signed(f.alice, [transferMsg(f.alice.address, f.bob.address, '5')], { accountNumber: 0, sequence: 0 }),
    );
    chain.produceBlock(T0 + 1000);
    chain.produceBlock(T0 + 2000);
    server = await startRpcServer(chain);
    client = await Comet38Client.connect(server.url);
  });

  afterAll(async () => {
    client.disconnect();
    await server.close();
  });

  it('status: network, 0.38 version, tip, validator', async () => {
    const s = await client.status();
    expect(s.nodeInfo.network).toBe(CHAIN_ID);
    expect(s.nodeInfo.version).toMatch(/^0\.38\./);
    expect(s.syncInfo.latestBlockHeight).toBe(3);
    expect(toHex(s.syncInfo.latestBlockHash).toUpperCase()).toBe(toHex(chain.block(3)!.blockId.hash).toUpperCase());
    expect(s.syncInfo.latestAppHash).toEqual(chain.block(3)!.appHash);
    expect(s.syncInfo.latestBlockTime.toISOString()).toBe('2024-01-02T00:00:02.000Z');
    expect(s.syncInfo.catchingUp).toBe(false);
    expect(s.validatorInfo.address).toEqual(chain.validator.address);
    expect(s.validatorInfo.pubkey?.algorithm).toBe('ed25519');
  });

  it('block: header fields decode and the header hash recomputes to block_id.hash', async () => {
    const b = await client.block(2);
    expect(b.block.header.height).toBe(2);
    expect(b.block.header.chainId).toBe(CHAIN_ID);
    expect(b.block.txs).toHaveLength(1);
    expect(TxRaw.decode(b.block.txs[0]).signatures).toHaveLength(1);
    expect(b.block.lastCommit?.height).toBe(1);
    expect(b.block.header.lastBlockId?.hash).toEqual(chain.block(1)!.blockId.hash);
    expect(headerHash(chain.block(2)!.header)).toEqual(b.blockId.hash);
    const first = await client.block(1);
    expect(first.block.header.lastBlockId).toBeNull();
    expect(first.block.lastCommit).toBeNull();
    const latest = await client.block();
    expect(latest.block.header.height).toBe(3);
  });

  it('block above the tip answers -32603 like CometBFT', async () => {
    await expect(client.block(99)).rejects.toThrow(
      /height 99 must be less than or equal to the current blockchain height 3/,
    );
    const { json } = await post(server.url, { jsonrpc: '2.0', id: 7, method: 'block', params: { height: '99' } });
    expect(json).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: -32603,
        message: 'Internal error',
        data: 'height 99 must be less than or equal to the current blockchain height 3',
      },
    });
  });

  it('block_results: one result per tx, events, finalize_block_events with mode', async () => {
    const r = await client.blockResults(2);
    expect(r.height).toBe(2);
    expect(r.results).toHaveLength(1);
    expect(r.results[0].code).toBe(0);
    expect(r.results[0].gasWanted).toBe(200000n);
    expect(r.results[0].events.map((e) => e.type)).toContain('svc.rights.v1.EventTransfer');
    const modes = r.finalizeBlockEvents.map((e) => e.attributes.find((a) => a.key === 'mode')?.value);
    expect(modes).toEqual(['BeginBlock', 'EndBlock']);
    expect((await client.blockResults(1)).results).toEqual([]);
  });

  it('blockchain: metas newest first, with and without bounds', async () => {
    const all = await client.blockchain();
    expect(all.lastHeight).toBe(3);
    expect(all.blockMetas.map((m) => m.header.height)).toEqual([3, 2, 1]);
    expect(all.blockMetas[1].numTxs).toBe(1);
    expect(all.blockMetas[0].blockId.hash).toEqual(chain.block(3)!.blockId.hash);
    const some = await client.blockchain(2, 3);
    expect(some.blockMetas.map((m) => m.header.height)).toEqual([3, 2]);
    await expect(client.blockchain(5, 9)).rejects.toThrow(/min height 5 can't be greater than max height 3/);
  });

  it('blockchain caps at 20 metas', async () => {
    const g = await fixture();
    for (let i = 0; i < 25; i++) g.chain.produceBlock(T0 + i * 1000);
    const s = await startRpcServer(g.chain);
    const c = await Comet38Client.connect(s.url);
    try {
      const metas = (await c.blockchain()).blockMetas;
      expect(metas).toHaveLength(20);
      expect(metas[0].header.height).toBe(25);
      expect(metas[19].header.height).toBe(6);
    } finally {
      c.disconnect();
      await s.close();
    }
  });

  it('abci_info, validators, genesis, health, num_unconfirmed_txs', async () => {
    const info = await client.abciInfo();
    expect(info).toMatchObject({ data: 'svc', lastBlockHeight: 3 });
    expect(info.lastBlockAppHash).toEqual(chain.block(3)!.appHash);
    const { json } = await post(server.url, { jsonrpc: '2.0', id: 1, method: 'abci_info' });
    expect(json.result.response.version).toBe('0.12.2-fake');
    const v = await client.validators({ height: 2 });
    expect(v).toMatchObject({ blockHeight: 2, count: 1, total: 1 });
    const g = await client.genesis();
    expect(g.chainId).toBe(CHAIN_ID);
    expect(g.validators[0].address).toEqual(chain.validator.address);
    expect(await client.health()).toBeNull();
    expect(await client.numUnconfirmedTxs()).toEqual({ total: 0, totalBytes: 0 });
  });

  it('status also decodes with the Tendermint37Client SubQuery probes the version with', async () => {
    const tm37 = await Tendermint37Client.connect(server.url);
    try {
      expect((await tm37.status()).nodeInfo.version).toMatch(/^0\.38\./);
    } finally {
      tm37.disconnect();
    }
  });

  it('commit and header decode with cosmjs', async () => {
    const c = await client.commit(2);
    expect(c.canonical).toBe(true);
    expect(c.commit.blockId.hash).toEqual(chain.block(2)!.blockId.hash);
    expect(c.header.height).toBe(2);
    expect((await client.commit()).canonical).toBe(false);
    const { json } = await post(server.url, { jsonrpc: '2.0', id: 1, method: 'header', params: { height: '3' } });
    expect(json.result.header).toEqual(JSON.parse(chain.block(3)!.blockJson).block.header);
  });

  it('ChainQueryClient (src/client) encodes the contract request and decodes the contract response', async () => {
    expect(queryMethodTypes('/svc.asset.v1.Query/KindSupply')).toEqual({
      requestType: 'svc.asset.v1.QueryKindSupplyRequest',
      responseType: 'svc.asset.v1.QueryKindSupplyResponse',
    });
    const queries = new ChainQueryClient(server.url);
    const latest = await queries.queryWithHeight('/svc.asset.v1.Query/KindSupply', { asset_id: ASSET_ID, kind_id: 1 });
    expect(latest).toEqual({ value: { supply: '1000', holder_count: '2', multiplier: '1' }, height: 3 });
    const atTwo = await queries.queryWithHeight(
      '/svc.asset.v1.Query/KindSupply',
      { asset_id: ASSET_ID, kind_id: 1 },
      { height: 2 },
    );
    expect(atTwo.height).toBe(2);
    const missing = queries.query('/svc.asset.v1.Query/KindSupply', { asset_id: 'cd'.repeat(32), kind_id: 1 });
    await expect(missing).rejects.toBeInstanceOf(AbciQueryError);
    await expect(missing).rejects.toMatchObject({ code: 2, codespace: 'asset' });
    expect(() => queryMethodTypes('/svc.asset.v1.Query/Nope')).toThrow(/unknown query path/);
  });

  it('abci_query answers from the app with proto bytes', async () => {
    const q = await client.abciQuery({ path: '/nope', data: new Uint8Array() });
    expect(q.code).toBe(6);
    expect(q.codespace).toBe('sdk');
    expect(q.height).toBe(3);
  });

  it('tx by hash (base64 param via cosmjs, hex via URI) and tx_search', async () => {
    const hash = chain.block(2)!.txHashes[0];
    const t = await client.tx({ hash: Buffer.from(hash, 'hex'), prove: true });
    expect(t).toMatchObject({ height: 2, index: 0 });
    expect(t.proof?.rootHash).toEqual(chain.block(2)!.header.dataHash);
    const viaUri = await get(`${server.url}/tx?hash=0x${hash}`);
    expect(viaUri.json.result).toMatchObject({ hash, height: '2', index: 0 });
    expect(viaUri.json.result.proof).toBeUndefined();
    const search = await client.txSearchAll({ query: `tx.hash='${hash}'` });
    expect(search.totalCount).toBe(1);
    const byEvent = await client.txSearch({ query: `svc.rights.v1.EventTransfer.units='"5"' AND tx.height>=2` });
    expect(byEvent.txs.map((x) => x.height)).toEqual([2]);
    await expect(client.tx({ hash: new Uint8Array(32) })).rejects.toThrow(/tx \(0{64}\) not found/);
  });

  it('URI GET form: /status, /block?height=2, errors with id -1 and HTTP 500, unknown path 404', async () => {
    const s = await get(`${server.url}/status`);
    expect(s.status).toBe(200);
    expect(s.json.id).toBe(-1);
    expect(s.json.result.node_info.network).toBe(CHAIN_ID);
    const b = await get(`${server.url}/block?height=2`);
    expect(b.json.result.block.header.height).toBe('2');
    const quoted = await get(`${server.url}/block?height="2"`);
    expect(quoted.json.result.block.header.height).toBe('2');
    const bad = await get(`${server.url}/block?height=abc`);
    expect(bad.status).toBe(500);
    expect(bad.json.error.code).toBe(-32602);
    expect((await get(`${server.url}/nosuchmethod`)).status).toBe(404);
  });

  it('JSON-RPC envelope: batches, unknown methods, bad params, parse errors, notifications, garbage', async () => {
    const batch = await post(server.url, [
      { jsonrpc: '2.0', id: 1, method: 'health' },
      { jsonrpc: '2.0', id: 'b', method: 'nope' },
      { jsonrpc: '2.0', id: 3, method: 'block', params: { height: 'x' } },
      { jsonrpc: '2.0', method: 'health' },
      { jsonrpc: '2.0', id: 4, method: 'block', params: ['1'] },
    ]);
    expect(batch.status).toBe(200);
    expect(batch.json).toHaveLength(4);
    expect(batch.json[0]).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(batch.json[1]).toEqual({ jsonrpc: '2.0', id: 'b', error: { code: -32601, message: 'Method not found' } });
    expect(batch.json[2].error.code).toBe(-32602);
    expect(batch.json[3].result.block.header.height).toBe('1');
    const parse = await post(server.url, '{not json');
    expect(parse.status).toBe(500);
    expect(parse.json.error.code).toBe(-32700);
    for (const junk of [
      '[]',
      '[1,2]',
      '"x"',
      'null',
      '{"id":{},"method":"status"}',
      '{"id":1,"method":"tx","params":{"hash":42}}',
      '{"id":1,"method":"broadcast_tx_sync","params":{"tx":"!!"}}',
      '{"id":1,"method":"blockchain","params":[1,2,3]}',
    ]) {
      const r = await post(server.url, junk);
      expect(r.status).toBeLessThan(600);
    }
    expect((await client.status()).syncInfo.latestBlockHeight).toBe(3);
  });

  it('broadcast_tx_sync rejects a bad signature with code 4 (cosmjs sees it)', async () => {
    const bytes = await signed(f.alice, [transferMsg(f.alice.address, f.bob.address, '1')], {
      accountNumber: 0,
      sequence: 1,
    });
    const raw = TxRaw.decode(bytes);
    raw.signatures[0][0] ^= 1;
    const r = await client.broadcastTxSync({ tx: TxRaw.encode(raw).finish() });
    expect(r.code).toBe(4);
    expect(r.codespace).toBe('sdk');
    expect(r.log).toMatch(/signature verification failed/);
    expect(chain.unconfirmedTxs()).toHaveLength(0);
  });

  it('broadcast_tx_commit waits for inclusion; async returns at once', async () => {
    chain.startLive(50);
    try {
      const bytes = await signed(f.alice, [transferMsg(f.alice.address, f.bob.address, '2')], {
        accountNumber: 0,
        sequence: 1,
      });
      const r = await client.broadcastTxCommit({ tx: bytes });
      expect(r.checkTx.code).toBe(0);
      expect(r.txResult?.code).toBe(0);
      expect(r.height).toBeGreaterThan(3);
      const again = await post(server.url, {
        jsonrpc: '2.0',
        id: 1,
        method: 'broadcast_tx_sync',
        params: { tx: Buffer.from(bytes).toString('base64') },
      });
      expect(again.json.error).toEqual({ code: -32603, message: 'Internal error', data: 'tx already exists in cache' });
      const next = await signed(f.alice, [transferMsg(f.alice.address, f.bob.address, '3')], {
        accountNumber: 0,
        sequence: 2,
      });
      const a = await client.broadcastTxAsync({ tx: next });
      expect(toHex(a.hash).toUpperCase()).toMatch(/^[0-9A-F]{64}$/);
      expect(await chain.waitForTx(toHex(a.hash), 5000)).toBeDefined();
    } finally {
      chain.stopLive();
    }
  });
});

describe('SigningStargateClient against the devnet', () => {
  it('signs a /svc.rights.v1.MsgTransfer with svcRegistry, broadcasts it and finds it included with its events', async () => {
    const { chain, alice, bob } = await fixture();
    chain.produceBlock(T0);
    chain.startLive(100);
    const server = await startRpcServer(chain);
    const client = await SigningStargateClient.connectWithSigner(server.url, alice.wallet, {
      registry: svcRegistry(),
      broadcastPollIntervalMs: 100,
      broadcastTimeoutMs: 10_000,
    });
    try {
      const account = await client.getAccount(alice.address);
      expect(account).toMatchObject({ address: alice.address, accountNumber: 0, sequence: 0 });
      const result = await client.signAndBroadcast(
        alice.address,
        [transferMsg(alice.address, bob.address, '42')],
        { amount: [...FEE.amount], gas: String(FEE.gas) },
        'via cosmjs',
      );
      expect(result.code).toBe(0);
      const transfer = result.events.find((e) => e.type === 'svc.rights.v1.EventTransfer');
      expect(transfer?.attributes).toEqual(expect.arrayContaining([{ key: 'units', value: '"42"' }]));
      const tx = await client.getTx(result.transactionHash);
      expect(tx?.height).toBe(result.height);
      expect(tx?.events.map((e) => e.type)).toContain('svc.rights.v1.EventTransfer');
      expect((await client.getAccount(alice.address))?.pubkey).not.toBeNull();
      expect((await client.getSequence(alice.address)).sequence).toBe(1);
      // a second tx picks up the pubkey and sequence from the chain
      const second = await client.signAndBroadcast(alice.address, [transferMsg(alice.address, bob.address, '1')], {
        amount: [...FEE.amount],
        gas: '200000',
      });
      expect(second.code).toBe(0);
    } finally {
      chain.stopLive();
      client.disconnect();
      await server.close();
    }
  });
});
