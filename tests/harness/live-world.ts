/**
 * A live world for the app services' end-to-end tests: the devnet chain producing a block
 * every `blockMs` (wall-clock times) on loopback RPC, the real subql-node-cosmos indexing it
 * into a fresh database (schema `svc`), and the /v1 read API on that store. Test actors sign
 * real txs (`submit` waits for the block), so every step goes chain → node → PostgreSQL.
 */
import express from 'express';
import type { Server } from 'http';
import type { AddressInfo } from 'net';
import { Pool } from 'pg';
import { createSvcApp, type SvcApp } from '../../devnet/app';
import { balance } from '../../devnet/app/modules/bank';
import { DevnetChain, startRpcServer, type DevnetRpcServer, type StoredTx } from '../../devnet/chain';
import { createRestApp } from '../../rest-adapter/app';
import { TxMsgData } from 'cosmjs-types/cosmos/base/abci/v1beta1/abci';
import { signTx } from '../../src/client/registry';
import { decodeMessage, lookupContractType } from '../../src/lib/contract';
import { deriveAssetId } from '../../src/lib/ids';
import { GAS_DENOM, STABLE_DENOM, TEST_CHAIN_ID, TEST_FEE, testKey, type TestKey } from './app-chain';
import { createTestDatabase } from './db';
import { ensureProjectBuilt } from './indexed-store';
import { subqlDbEnv, type TestDatabase } from './postgres';
import { startNode, type SubqlNode } from './subql-node';

export const INDEXER_SCHEMA = 'svc';
const WHOLE = 1_000_000n;

export interface Msg {
  typeUrl: string;
  value: Record<string, unknown>;
}

export interface Committed {
  hash: string;
  height: number;
  code: number;
  log: string;
  /** the message responses' proto-JSON (asset_id, encumbrance_id, settlement_id, pool_id…) */
  responses: Record<string, unknown>[];
  gasUsed: bigint;
}

export interface LiveWorld {
  app: SvcApp;
  chain: DevnetChain;
  rpcUrl: string;
  db: TestDatabase;
  /** a pool on the world's database (no search_path: name schemas) */
  pool: Pool;
  restUrl: string;
  keys: Record<string, TestKey>;
  /** signs with the key's next sequence, puts the tx through CheckTx and waits for its block (gas: TEST_FEE's unless given) */
  submit(key: TestKey, messages: Msg[], o?: { gas?: bigint }): Promise<Committed>;
  /** until the node has indexed the chain's current height (or `height`) */
  waitIndexed(height?: number): Promise<void>;
  /** stops the node where it is (SIGSTOP) until run again (SIGCONT): the index stands still while the chain goes on */
  pauseIndexer(): Promise<number>;
  resumeIndexer(): void;
  /** GET on the /v1 API; the parsed body */
  rest<T = any>(path: string): Promise<T>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies are asserted field by field
  balance(address: string, denom?: string): bigint;
  close(): Promise<void>;
}

export interface LiveWorldOptions {
  /** names of the test keys funded at genesis (gas and stable denom) */
  keys: string[];
  blockMs?: number;
  /** extra flags of the node, e.g. ['--subscription'] */
  nodeArgs?: string[];
}

/** The svc message responses of a committed tx (TxMsgData in its result data). */
function responsesOf(tx: StoredTx): Record<string, unknown>[] {
  if (tx.result.code !== 0 || tx.result.data.length === 0) return [];
  return TxMsgData.decode(tx.result.data).msgResponses.map((r) =>
    lookupContractType(r.typeUrl.slice(1)) ? decodeMessage(r.typeUrl.slice(1), r.value) : {},
  );
}

export async function startLiveWorld(o: LiveWorldOptions): Promise<LiveWorld> {
  ensureProjectBuilt();
  const keys: Record<string, TestKey> = {};
  for (const name of o.keys) keys[name] = await testKey(`world/${name}`);
  const coins = [
    { denom: GAS_DENOM, amount: '1000000000000' },
    { denom: STABLE_DENOM, amount: '1000000000000' },
  ];
  const app = createSvcApp({ genesis: { balances: Object.values(keys).map((k) => ({ address: k.address, coins })) } });
  const chain = await DevnetChain.create({ app, chainId: TEST_CHAIN_ID });
  const blockMs = o.blockMs ?? 300;
  chain.startLive(blockMs);
  const server: DevnetRpcServer = await startRpcServer(chain, { host: '127.0.0.1', port: 0 });
  while (chain.height < 2) await new Promise((r) => setTimeout(r, blockMs)); // the node measures the interval from two blocks
  const db = await createTestDatabase('world');
  const pool = new Pool({ connectionString: db.url, max: 4 });
  pool.on('error', () => undefined);
  let node: SubqlNode | undefined;
  let http: Server | undefined;
  try {
    node = await startNode({
      dbEnv: subqlDbEnv(db),
      endpoint: server.url,
      schema: INDEXER_SCHEMA,
      batchSize: 5,
      extraArgs: o.nodeArgs,
    });
    const rest = express().use(createRestApp({ pool, schema: INDEXER_SCHEMA, hrp: 'svc', responseCache: false }));
    http = await new Promise<Server>((resolve) => {
      const s = rest.listen(0, '127.0.0.1', () => resolve(s));
    });
  } catch (e) {
    chain.stopLive();
    await node?.stop();
    await server.close();
    await pool.end();
    await db.drop();
    throw e;
  }
  const restUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const sequences = new Map<string, bigint>();

  async function submit(key: TestKey, messages: Msg[], o: { gas?: bigint } = {}): Promise<Committed> {
    const account = app.account(key.address)!;
    const sequence = sequences.get(key.address) ?? account.sequence;
    const bytes = await signTx(key.wallet, {
      messages,
      accountNumber: account.accountNumber,
      sequence,
      chainId: TEST_CHAIN_ID,
      fee: o.gas ? { ...TEST_FEE, gas: o.gas } : TEST_FEE,
      signerAddress: key.address,
    });
    const check = await chain.checkTx(bytes);
    if (check.code !== 0)
      throw new Error(
        `CheckTx refused ${messages.map((m) => m.typeUrl).join(', ')}: ${check.codespace}/${check.code} ${check.log}`,
      );
    sequences.set(key.address, sequence + 1n);
    const tx = await chain.waitForTx(check.hash, 100 * blockMs);
    if (!tx) throw new Error(`tx ${check.hash} not in a block`);
    return {
      hash: check.hash,
      height: tx.height,
      code: tx.result.code,
      log: tx.result.log,
      responses: responsesOf(tx),
      gasUsed: tx.result.gasUsed,
    };
  }

  return {
    app,
    chain,
    rpcUrl: server.url,
    db,
    pool,
    restUrl,
    keys,
    submit,
    async waitIndexed(height = chain.height) {
      await node!.waitForHeight(height, 60_000);
    },
    async pauseIndexer() {
      process.kill(node!.pid, 'SIGSTOP');
      return node!.lastProcessedHeight();
    },
    resumeIndexer() {
      process.kill(node!.pid, 'SIGCONT');
    },
    async rest<T>(path: string): Promise<T> {
      const res = await fetch(restUrl + path);
      if (res.status !== 200) throw new Error(`GET ${path} -> ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    },
    balance: (address, denom = STABLE_DENOM) => balance(app.stateAt(chain.height), address, denom),
    async close() {
      await new Promise<void>((resolve) => http!.close(() => resolve()));
      await node!.stop();
      chain.stopLive();
      await server.close();
      await pool.end();
      await db.drop();
    },
  };
}

export interface EquityAsset {
  assetId: string;
  poolId: number;
  kindCount: number;
}

/** A kind of a launched asset: its class (KIND_CLASS_*), decimals (6) and whether it is in the bundle (yes). */
export interface KindSpec {
  class: string;
  decimals?: number;
  bundle?: boolean;
}

const EQUITY_KINDS: KindSpec[] = [
  { class: 'KIND_CLASS_ECONOMIC' },
  { class: 'KIND_CLASS_INCOME' },
  { class: 'KIND_CLASS_VOTE' },
];

/**
 * An equity asset (ECONOMIC, INCOME, VOTE; or `kinds`) with `metaHash`, each holder issued
 * `units` of every kind, and a DEX pool of `poolShares` whole shares (or `poolBase` base units)
 * against `poolQuote` of the stable denom. `nonce`: the issuer's assets created before (0).
 */
export async function launchEquity(
  world: LiveWorld,
  o: {
    issuer: TestKey;
    metaHash: string;
    holders: { key: TestKey; units: bigint }[];
    poolShares: bigint;
    poolQuote: bigint;
    /** the asset's roles (default none) */
    roles?: { operator?: string; releaser?: string };
    /** base units of every kind in the pool, where not `poolShares` whole shares (a thin pool) */
    poolBase?: bigint;
    kinds?: KindSpec[];
    nonce?: bigint;
  },
): Promise<EquityAsset> {
  const issuer = o.issuer.address;
  const assetId = deriveAssetId(issuer, o.nonce ?? 0n);
  const kinds = o.kinds ?? EQUITY_KINDS;
  await world.submit(o.issuer, [
    {
      typeUrl: '/svc.asset.v1.MsgCreateAsset',
      value: {
        issuer,
        meta_hash: o.metaHash,
        settlement_denom: STABLE_DENOM,
        policy: { transfer: 'TRANSFER_MODE_OPEN' },
        kinds: kinds.map((k) => ({
          class: k.class,
          decimals: k.decimals ?? 6,
          bundle: k.bundle ?? true,
          transferable: true,
        })),
        distribution_denoms: [STABLE_DENOM],
        ...(o.roles ? { roles: o.roles } : {}),
      },
    },
  ]);
  const poolBase = o.poolBase ?? o.poolShares * WHOLE;
  const recipients = [...o.holders, { key: o.issuer, units: poolBase }];
  const issues = recipients.flatMap((h) =>
    kinds.map((_, k) => ({
      typeUrl: '/svc.asset.v1.MsgIssue',
      value: { issuer, asset_id: assetId, kind_id: k, recipient: h.key.address, units: h.units.toString() },
    })),
  );
  await world.submit(o.issuer, issues);
  const created = await world.submit(o.issuer, [
    {
      typeUrl: '/svc.dex.v1.MsgCreatePool',
      value: {
        creator: issuer,
        asset_id: assetId,
        quote_denom: STABLE_DENOM,
        base_units: poolBase.toString(),
        quote_amount: o.poolQuote.toString(),
      },
    },
  ]);
  if (created.code !== 0) throw new Error(`MsgCreatePool failed: ${created.log}`);
  return { assetId, poolId: Number(created.responses[0]?.pool_id ?? 1), kindCount: kinds.length };
}

/** `steps` one after the other (one issuer's assets: each takes the next nonce), to run beside other issuers' launches. */
export async function inTurn<T>(...steps: (() => Promise<T>)[]): Promise<T[]> {
  const done: T[] = [];
  for (const step of steps) done.push(await step());
  return done;
}
