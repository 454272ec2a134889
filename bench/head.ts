/**
 * `npm run bench:head -- [--block-ms 1000,6000] [--rounds 20] [--seconds 240] [--quick] [--asset LNW]
 *   [--against <checkout>] [--runs '<json>']`
 *
 * How fresh `npm start` is at the head of the chain, at each devnet block interval:
 *
 * 1. `npm start` as a user runs it (tests/harness/launcher-process.ts): the embedded devnet
 *    (DEVNET_BLOCK_MS, ~10 scenario txs a block), the real subql-node-cosmos with the
 *    launcher's settings, /v1 with its stream, and the lender and the desk acting; its
 *    database is a fresh one on this bench's PostgreSQL, so the bench reads the store too;
 * 2. "committed": the chain's RPC `status` read every 20 ms, the first read showing a height
 *    (so at most 20 ms and one loopback request after the block is committed); "indexed":
 *    `_metadata.lastProcessedHeight` read every 10 ms; "pushed": a `/v1/stream` client reading
 *    the `block` event of the height;
 * 3. `--rounds` times (or until `--seconds` of rounds have passed at that interval), as the devnet's `visitor` (examples/services.ts, the account the
 *    scenario never signs for), right after a block is committed: an offer to the desk (the
 *    whole share of `--asset` at 90 % of its bid: the desk auto-accepts it) and a pledge of
 *    every kind to the lender (one per tx, the set a loan opens on), the four txs signed with
 *    consecutive sequences so they land in one block; then until the desk's accept and the
 *    loan's principal are committed (their txs as /api/desk/offers and /api/lender/loans name
 *    them, their heights from the chain).
 *
 * It prints per block interval: index lag (committed → indexed) p50/p99 over every height
 * committed during the rounds, the push delay (committed → the stream's block event; and
 * indexed → event), the desk's auto-accept (offer committed → accept committed) and the
 * lender's open (last pledge committed → principal committed) p50/p99 in blocks and in ms (the
 * commit times of the two heights), and the targets: at 1 s blocks index lag p50 <= 1.5 s and
 * p99 <= 2.5 s; auto-accept and open p99 <= 2 blocks at every interval. `--against` runs
 * another checkout's `npm start` (built, with node_modules) the same way, interleaved with this
 * one's, so a change is measured side by side in one run. `--runs` names every world of each
 * interval instead: [{"label", "root"?: <checkout>, "env"?: {"NODE_WORKERS": "1", …}, "blockMs"?: [1000]}], e.g.
 * this checkout with and without a launcher setting, and an earlier checkout.
 *
 * `--quick`: 6 rounds and at most 60 s of rounds per interval (the 6 s world then takes ~2 min
 * after it is ready).
 *
 * PostgreSQL: an embedded server (tests/harness/postgres.ts), a fresh database per world.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import { createParser } from 'eventsource-parser';
import http from 'http';
import { DirectSecp256k1Wallet } from '@cosmjs/proto-signing';
import { Client } from 'pg';
import { connectChain, type ChainClient, type CommittedTx } from '../app-services/chain/chain-client';
import { privateKey } from '../devnet/scenario/accounts';
import { freePort } from '../src/runtime/ports';
import { signTx } from '../src/client/registry';
import { loadChainConfig } from '../src/lib/config';
import { benchLauncherEnv, spawnLauncher, stopLauncher, waitLauncherReady } from '../tests/harness/launcher-process';
import { createDatabase, startPostgres, uniqueName } from '../tests/harness/postgres';
import { chainHeightWatcher, dist, indexedHeightWatcher, type Dist, type HeightWatcher } from './lib/head-watchers';
import { busy, machineState } from './lib/machine';

const SCHEMA = 'svc';
const SEED = 'svc-devnet';
const WHOLE = 1_000_000n;
const BPS = 10_000n;
const GAS = 2_000_000;
/** the stable value each round offers the desk and borrows from the lender (whole units): small, so 20 rounds stay far within every cap */
const ROUND_STABLE = 20n;
const ROUND_BLOCKS = 30;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are read field by field

interface Args {
  blockMs: number[];
  rounds: number;
  /** at most this many seconds of rounds per world (a round started before it ends is finished) */
  seconds: number;
  asset: string;
  against?: string;
  /** the worlds of each interval: this checkout (no root) or another, with extra environment */
  runs?: Run[];
}

interface Run {
  label: string;
  root?: string;
  env?: Record<string, string>;
  /** only at these block intervals (default every one) */
  blockMs?: number[];
}

function parseArgs(argv: string[]): Args {
  const a: Args = { blockMs: [1000, 6000], rounds: 20, seconds: 240, asset: 'LNW' };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, v] = [argv[i], argv[i + 1]];
    if (flag === '--quick') {
      [a.rounds, a.seconds] = [6, 60];
      i--;
      continue;
    }
    if (v === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--block-ms') a.blockMs = v.split(',').map(Number);
    else if (flag === '--rounds') a.rounds = Number(v);
    else if (flag === '--seconds') a.seconds = Number(v);
    else if (flag === '--asset') a.asset = v;
    else if (flag === '--against') a.against = path.resolve(v);
    else if (flag === '--runs') a.runs = JSON.parse(v) as Run[];
    else throw new Error(`unknown option ${flag}`);
  }
  if (!a.blockMs.every((x) => Number.isSafeInteger(x) && x >= 100)) throw new Error('--block-ms: integers >= 100');
  if (!Number.isSafeInteger(a.rounds) || a.rounds < 1) throw new Error('--rounds: a positive integer');
  if (!Number.isSafeInteger(a.seconds) || a.seconds < 1) throw new Error('--seconds: a positive integer');
  if (a.against && !fs.existsSync(path.join(a.against, 'dist', 'index.js')))
    throw new Error(`--against ${a.against}: not a built checkout (npm ci && npm run build there)`);
  for (const r of a.runs ?? []) {
    if (!r.root) continue;
    r.root = path.resolve(r.root);
    if (!fs.existsSync(path.join(r.root, 'dist', 'index.js')))
      throw new Error(`--runs ${r.label}: not a built checkout`);
  }
  return a;
}

const log = (line: string) => console.log(`[bench:head] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => Promise<T | null | undefined>, ms: number, every = 250): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(every);
  }
}

/** The `block` events of `/v1/stream`: when each height's arrived. */
function streamBlocks(apiUrl: string): { seenAt: Map<number, number>; close(): void } {
  const seenAt = new Map<number, number>();
  const parser = createParser({
    onEvent(e) {
      if (e.event !== 'block') return;
      const height = (JSON.parse(e.data) as { height: number }).height;
      if (!seenAt.has(height)) seenAt.set(height, Date.now());
    },
  });
  const req = http.get(`${apiUrl}/v1/stream`, { agent: false }, (res) => {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => parser.feed(chunk));
    res.on('error', () => undefined);
  });
  req.on('error', () => undefined);
  return { seenAt, close: () => req.destroy() };
}

/** The devnet's visitor: signs several txs for one block with consecutive sequences. */
class Visitor {
  private sequence: bigint | undefined;
  private constructor(
    readonly address: string,
    private readonly wallet: DirectSecp256k1Wallet,
    readonly chain: ChainClient,
    private readonly gasDenom: string,
  ) {}

  static async open(rpcUrl: string): Promise<Visitor> {
    const config = loadChainConfig(process.env);
    const wallet = await DirectSecp256k1Wallet.fromKey(privateKey(SEED, 'visitor'), config.hrp);
    const [{ address }] = await wallet.getAccounts();
    return new Visitor(address, wallet, await connectChain(rpcUrl), config.gasDenom);
  }

  /** Signs and broadcasts each message list as its own tx; the hashes, in order. */
  async send(txs: { typeUrl: string; value: Record<string, unknown> }[][]): Promise<string[]> {
    const account = await this.chain.account(this.address);
    if (!account) throw new Error('the visitor has no account');
    this.sequence ??= account.sequence;
    const signed = [];
    for (const messages of txs)
      signed.push(
        await signTx(this.wallet, {
          messages,
          accountNumber: account.accountNumber,
          sequence: this.sequence + BigInt(signed.length),
          chainId: this.chain.chainId,
          fee: { amount: [{ denom: this.gasDenom, amount: '5000' }], gas: GAS },
          signerAddress: this.address,
        }),
      );
    const hashes: string[] = [];
    for (const tx of signed) {
      const r = await this.chain.broadcast(tx);
      if (r.code !== 0) {
        this.sequence = undefined; // read again next time
        throw new Error(`broadcast refused: ${r.codespace}/${r.code} ${r.log}`);
      }
      hashes.push(r.hash);
    }
    this.sequence += BigInt(signed.length);
    return hashes;
  }

  committed(hash: string): Promise<CommittedTx> {
    return until(`tx ${hash} in a block`, () => this.chain.findTx(hash), 60_000, 100);
  }
}

function attribute(tx: CommittedTx, type: string, key: string): string {
  const raw = tx.events.find((e) => e.type === type)?.attributes.find((a) => a.key === key)?.value;
  if (raw === undefined) throw new Error(`tx ${tx.hash} has no ${type}.${key}`);
  return String(JSON.parse(raw));
}

/** What a service did with a round's txs: its tx, or why none. */
interface Outcome {
  tx?: string;
  refused?: string;
}

interface Latency {
  blocks: number;
  ms: number;
}

interface WorldFigures {
  label: string;
  blockMs: number;
  /** the node's head-poll period as the node computes it when it starts (0.9 × the mean interval of the latest 20 blocks, at most 5 s) */
  headPollMs: number;
  heights: number;
  indexLagMs: Dist;
  pushFromCommitMs: Dist;
  pushFromIndexMs: Dist;
  desk: { blocks: Dist; ms: Dist; notAccepted: string[] };
  lender: { blocks: Dist; ms: Dist; notOpened: string[] };
  machine: { before: number[]; after: number[] };
}

async function get(base: string, p: string): Promise<Json> {
  const res = await fetch(base + p);
  const body = (await res.json()) as Json;
  if (res.status !== 200) throw new Error(`GET ${p}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** What the node computed its head poll from: the `blockchain` metas up to the height the chain had when the node started. */
async function headPollMs(rpcUrl: string, chain: ChainClient, nodeStartedMs: number): Promise<number> {
  let h = await chain.height();
  while (h > 1 && (await chain.committedBlock(h)).timeMs > nodeStartedMs) h--;
  const res = await fetch(`${rpcUrl}/blockchain?maxHeight=${h}`);
  const metas = ((await res.json()) as { result: { block_metas: { header: { time: string } }[] } }).result.block_metas;
  const times = metas.map((m) => Date.parse(m.header.time));
  const mean = Math.abs(times[0] - times[times.length - 1]) / (times.length - 1);
  return Math.round(Math.min(5000, 0.9 * mean));
}

async function world(
  label: string,
  root: string | undefined,
  extraEnv: Record<string, string>,
  blockMs: number,
  a: Args,
  pgUrl: string,
): Promise<WorldFigures> {
  const db = await createDatabase(pgUrl, uniqueName('bench_head'));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-head-'));
  fs.chmodSync(dataDir, 0o755);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = benchLauncherEnv(
    { port, dataDir, databaseUrl: db.url, unset: ['DEVNET_SEED'] },
    { DEVNET_BLOCK_MS: String(blockMs), ...extraEnv },
  );
  const launcher = spawnLauncher(env, { detached: true, root });
  const watcherDb = new Client({ connectionString: db.url });
  watcherDb.on('error', () => undefined);
  let committed: HeightWatcher | undefined;
  let indexed: HeightWatcher | undefined;
  let stream: ReturnType<typeof streamBlocks> | undefined;
  let visitor: Visitor | undefined;
  try {
    await waitLauncherReady(base, launcher, 600_000);
    const rpcUrl = String(launcher.lines.find((l) => l.msg === 'devnet live')?.rpc ?? '');
    if (!rpcUrl || !launcher.lines.some((l) => l.msg === 'subql-node-cosmos running'))
      throw new Error('npm start did not log its devnet RPC and the node start');
    await watcherDb.connect();
    committed = chainHeightWatcher(rpcUrl);
    indexed = indexedHeightWatcher(watcherDb, SCHEMA);
    committed.start();
    indexed.start();
    stream = streamBlocks(base);
    visitor = await Visitor.open(rpcUrl);
    log(`${label} @${blockMs} ms: npm start ready on ${base}, chain ${rpcUrl}`);

    // the desk must quote the asset and the lender lend against it (a fresh start fills its price window first)
    const quote = await until(
      `the desk to quote ${a.asset}`,
      async () =>
        ((await get(base, '/api/desk/quotes')).quotes as Json[]).find(
          (q) => (q.symbol === a.asset || q.asset_id === a.asset) && q.kind === -1 && q.bid !== null,
        ),
      600_000,
      1000,
    );
    const assetId = String(quote.asset_id);
    const terms = await until(
      `the lender to lend against ${a.asset}`,
      async () => {
        const t = await get(base, '/api/lender/terms');
        const c = (t.capacity as Json[]).find((x) => x.asset_id === assetId);
        return c && BigInt(c.lendable) > 0n ? t : undefined;
      },
      600_000,
      1000,
    );
    // the node that runs the rounds: the latest one started (a launcher may restart it once at the head)
    const nodeStarted = [...launcher.lines].reverse().find((l) => l.msg === 'subql-node-cosmos running')!;
    const poll = await headPollMs(rpcUrl, visitor.chain, Date.parse(String(nodeStarted.time)));
    log(
      `${label} @${blockMs} ms: the node (pid ${String(nodeStarted.pid)}, workers ${String(nodeStarted.workers ?? 'n/a')}) polls the head every ${poll} ms`,
    );
    const kinds = ((await get(base, `/v1/assets/${assetId}`)).asset.kinds as Json[]).map((k) => Number(k.kind_id));
    const desk = (
      await DirectSecp256k1Wallet.fromKey(privateKey(SEED, 'desk'), loadChainConfig(process.env).hrp).then((w) =>
        w.getAccounts(),
      )
    )[0].address;
    const stable = String(terms.denom);

    const deskRounds: Latency[] = [];
    const lenderRounds: Latency[] = [];
    const notAccepted: string[] = [];
    const notOpened: string[] = [];
    const load0 = machineState();
    const from = committed.height + 1;
    const roundsEnd = Date.now() + a.seconds * 1000;
    for (let r = 0; r < a.rounds && (r === 0 || Date.now() < roundsEnd); r++) {
      const q = ((await get(base, '/api/desk/quotes')).quotes as Json[]).find(
        (x) => x.asset_id === assetId && x.kind === -1,
      );
      const bid = BigInt(q?.bid ?? quote.bid);
      // whole shares worth ~ROUND_STABLE at the bid, offered at 90 % of it: a bid that moves with the
      // scenario's trades still accepts (at 97 % one round in 15 was refused worse_than_quote)
      const shares = (ROUND_STABLE * WHOLE * WHOLE) / bid / WHOLE + 1n;
      const ask = (shares * bid * 90n) / 100n;
      const pledgeUnits =
        (((ROUND_STABLE * WHOLE * BPS * WHOLE) / (BigInt(terms.ltv_bps) * bid) / WHOLE + 1n) * WHOLE * 110n) / 100n;
      const offer = [
        {
          typeUrl: '/svc.settlement.v1.MsgPropose',
          value: {
            proposer: visitor.address,
            counterparty: desk,
            legs: [
              ...kinds.map((kind) => ({
                direction: 'LEG_DIRECTION_GIVE',
                right: { asset_id: assetId, kind_id: kind, units: (shares * WHOLE).toString() },
              })),
              { direction: 'LEG_DIRECTION_ASK', coin: { denom: stable, amount: ask.toString() } },
            ],
            expiry: new Date(Date.now() + 600_000).toISOString().replace(/\.\d+Z$/, 'Z'),
          },
        },
      ];
      const pledges = kinds.map((kind) => [
        {
          typeUrl: '/svc.encumbrance.v1.MsgCreateEncumbrance',
          value: {
            creator: visitor!.address,
            kind: 'ENCUMBRANCE_KIND_PLEDGE',
            asset_id: assetId,
            kind_id: kind,
            holder: visitor!.address,
            units: pledgeUnits.toString(),
            beneficiary: terms.lender,
            income_to_beneficiary: true,
            exercisable: true,
          },
        },
      ]);
      await committed.next(); // right after a commit: the four txs go in the next block
      const [offerHash, ...pledgeHashes] = await visitor.send([offer, ...pledges]);
      const offerTx = await visitor.committed(offerHash);
      const pledgeTxs = await Promise.all(pledgeHashes.map((h) => visitor!.committed(h)));
      if (offerTx.code !== 0 || pledgeTxs.some((t) => t.code !== 0))
        throw new Error(
          `round ${r}: a tx failed: ${[offerTx, ...pledgeTxs].map((t) => `${t.code} ${t.log}`).join('; ')}`,
        );
      const settlementId = Number(attribute(offerTx, 'svc.settlement.v1.EventSettlementProposed', 'settlement_id'));
      const pledgeIds = pledgeTxs.map((t) =>
        attribute(t, 'svc.encumbrance.v1.EventEncumbranceCreated', 'encumbrance_id'),
      );
      const lastPledge = Math.max(...pledgeTxs.map((t) => t.height));
      const waitMs = ROUND_BLOCKS * blockMs + 10_000;
      const [accepted, opened] = await Promise.all([
        until<Outcome>(
          'the desk to answer the offer',
          async () => {
            const o = ((await get(base, `/api/desk/offers?address=${visitor!.address}`)).offers as Json[]).find(
              (x) => Number(x.settlement_id) === settlementId,
            );
            if (!o) return undefined;
            if (o.verdict === 'accepting' || o.verdict === 'accepted') return o.tx ? { tx: String(o.tx) } : undefined;
            return { refused: `${o.verdict}: ${o.reason} ${o.detail}` };
          },
          waitMs,
        ).catch((e: Error): Outcome => ({ refused: e.message })),
        until<Outcome>(
          'the lender to open the loan',
          async () => {
            const l = ((await get(base, `/api/lender/loans?address=${visitor!.address}`)).loans as Json[]).find(
              (x) => (x.pledges as number[]).map(String).join() === pledgeIds.join(),
            );
            if (!l) return undefined;
            if (l.status === 'active') return l.open_tx ? { tx: String(l.open_tx) } : undefined;
            if (['refused', 'cancelled'].includes(l.status)) return { refused: `${l.status}: ${l.reason} ${l.detail}` };
            return undefined;
          },
          waitMs,
        ).catch((e: Error): Outcome => ({ refused: e.message })),
      ]);
      const latency = async (tx: string, after: number): Promise<Latency> => {
        const height = (await visitor!.committed(tx)).height;
        return { blocks: height - after, ms: committed!.seenAt.get(height)! - committed!.seenAt.get(after)! };
      };
      if (accepted.tx !== undefined) deskRounds.push(await latency(accepted.tx, offerTx.height));
      else notAccepted.push(String(accepted.refused));
      if (opened.tx !== undefined) lenderRounds.push(await latency(opened.tx, lastPledge));
      else notOpened.push(String(opened.refused));
      const d = deskRounds[deskRounds.length - 1];
      const l = lenderRounds[lenderRounds.length - 1];
      log(
        `${label} @${blockMs} ms round ${r + 1}/${a.rounds}: offer in ${offerTx.height}, accept ${accepted.tx !== undefined ? `+${d.blocks} blocks (${d.ms} ms)` : `none (${accepted.refused})`}; ` +
          `pledges in ${lastPledge}, principal ${opened.tx !== undefined ? `+${l.blocks} blocks (${l.ms} ms)` : `none (${opened.refused})`}`,
      );
    }
    const to = committed.height;
    await sleep(Math.max(10_000, 3 * blockMs)); // the last heights get indexed and pushed
    const load1 = machineState();
    const lags: number[] = [];
    const push: number[] = [];
    const pushAfterIndex: number[] = [];
    for (let h = from; h <= to; h++) {
      const c = committed.seenAt.get(h);
      const i = indexed.seenAt.get(h);
      const p = stream.seenAt.get(h);
      if (c !== undefined && i !== undefined) lags.push(i - c);
      if (c !== undefined && p !== undefined) push.push(p - c);
      if (i !== undefined && p !== undefined) pushAfterIndex.push(p - i);
    }
    return {
      label,
      blockMs,
      headPollMs: poll,
      heights: to - from + 1,
      indexLagMs: dist(lags),
      pushFromCommitMs: dist(push),
      pushFromIndexMs: dist(pushAfterIndex),
      desk: { blocks: dist(deskRounds.map((x) => x.blocks)), ms: dist(deskRounds.map((x) => x.ms)), notAccepted },
      lender: { blocks: dist(lenderRounds.map((x) => x.blocks)), ms: dist(lenderRounds.map((x) => x.ms)), notOpened },
      machine: { before: load0.load, after: load1.load },
    };
  } finally {
    stream?.close();
    visitor?.chain.disconnect();
    await committed?.stop();
    await indexed?.stop();
    await watcherDb.end().catch(() => undefined);
    await stopLauncher(launcher);
    await db.drop().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const p = (d: Dist) => `${d.p50} / ${d.p99}`;

function print(f: WorldFigures): void {
  const blocks = (ms: number) => (ms / f.blockMs).toFixed(2);
  log(
    `${f.label} @${f.blockMs} ms (head poll ${f.headPollMs} ms, ${f.heights} heights, load ${f.machine.before[0]} -> ${f.machine.after[0]}):\n` +
      `  index lag p50/p99        ${p(f.indexLagMs)} ms (${blocks(f.indexLagMs.p50)} / ${blocks(f.indexLagMs.p99)} blocks), max ${f.indexLagMs.max} ms, n ${f.indexLagMs.n}\n` +
      `  push from commit p50/p99 ${p(f.pushFromCommitMs)} ms (from the index: ${p(f.pushFromIndexMs)} ms), n ${f.pushFromCommitMs.n}\n` +
      `  desk auto-accept p50/p99 ${p(f.desk.blocks)} blocks, ${p(f.desk.ms)} ms, max ${f.desk.blocks.max} blocks, n ${f.desk.blocks.n}` +
      `${f.desk.notAccepted.length ? `; not accepted: ${f.desk.notAccepted.join(' | ')}` : ''}\n` +
      `  lender open p50/p99      ${p(f.lender.blocks)} blocks, ${p(f.lender.ms)} ms, max ${f.lender.blocks.max} blocks, n ${f.lender.blocks.n}` +
      `${f.lender.notOpened.length ? `; not opened: ${f.lender.notOpened.join(' | ')}` : ''}`,
  );
  const targets = [
    ...(f.blockMs === 1000
      ? [
          ['index lag p50 <= 1500 ms', f.indexLagMs.p50 <= 1500],
          ['index lag p99 <= 2500 ms', f.indexLagMs.p99 <= 2500],
        ]
      : []),
    // a round the service refused (its reason printed above) has no latency: the target is on the answered ones
    ['desk auto-accept p99 <= 2 blocks', f.desk.blocks.p99 <= 2],
    ['lender open p99 <= 2 blocks', f.lender.blocks.p99 <= 2],
  ];
  log(`  targets: ${targets.map(([name, met]) => `${name} ${met ? 'met' : 'MISSED'}`).join(', ')}`);
}

async function main(): Promise<void> {
  const a = parseArgs(process.argv.slice(2));
  const pg = await startPostgres({ settings: { max_connections: 100 } });
  const results: WorldFigures[] = [];
  try {
    for (const [k, blockMs] of a.blockMs.entries()) {
      const runs: Run[] = (a.runs ?? [{ label: 'this' }]).filter((r) => !r.blockMs || r.blockMs.includes(blockMs));
      if (a.against) runs.push({ label: path.basename(a.against), root: a.against });
      if (k % 2 === 1) runs.reverse(); // alternate who goes first, so a drift of the machine favours neither
      for (const r of runs) {
        try {
          const f = await world(r.label, r.root, r.env ?? {}, blockMs, a, pg.url);
          print(f);
          results.push(f);
        } catch (e) {
          // one world that fails to start or to finish must not lose the others' figures
          log(`${r.label} @${blockMs} ms FAILED: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    }
  } finally {
    await pg.stop();
  }
  log('summary (p50 / p99):');
  log(
    '| checkout | block | head poll | index lag ms | push from commit ms | desk accept blocks (ms) | lender open blocks (ms) |',
  );
  for (const f of results)
    log(
      `| ${f.label} | ${f.blockMs} ms | ${f.headPollMs} ms | ${p(f.indexLagMs)} | ${p(f.pushFromCommitMs)} | ${p(f.desk.blocks)} (${p(f.desk.ms)}) | ${p(f.lender.blocks)} (${p(f.lender.ms)}) |`,
    );
  const m = machineState();
  if (busy(m)) log(`the machine is busy (load ${m.load.join(' ')}): repeat before quoting`);
  console.log(JSON.stringify({ bench: 'head', args: a, results }));
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
