/**
 * `npm run bench:world-flow -- [--hours 24] [--seed svc-devnet] [--block-ms 1000] [--txs-per-block 10]
 *   [--history-blocks 200] [--every-h 1] [--no-services-mode]`
 * `npm run bench:world-flow -- --archive DIR [--from-height 221] [--every-h 1] [--seed svc-devnet]`
 *
 * Who buys and who sells the default world's main equity (LNW) in its pool, per simulated hour
 * (a block is a second of the default world), from each block's committed EventSwapped events,
 * by who signed the swap: the scenario's holders, the desk, the lender, the soak's honest users
 * and attackers (bench/soak-services.ts, by their key names), anyone else; and the pool's price
 * at the end of each period.
 *
 * Without `--archive`: the scenario alone (no node, no app services), its live blocks made on
 * demand at simulated times `--block-ms` apart after the history npm start makes. In services
 * mode (the default, as `npm start` runs it) nothing signs as the lender or the desk, so what is
 * left is the scenario's own flow; each line adds the holders' whole bundles they may move (what
 * they can sell into the pool), the share of their VOTE kind locked, and the desk's, the
 * lender's and the visitor's units of kind 0.
 *
 * With `--archive DIR`: a chain already made, read from a copy of an npm start data directory's
 * `devnet/archive` (a soak's, say), from `--from-height` (the first live block) on.
 *
 * CPU-heavy (a day is 86,400 blocks): run it under `flock /tmp/heavy.lock`.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import { parseArgs } from 'util';
import { DirectSecp256k1Wallet } from '@cosmjs/proto-signing';
import { BlockArchive, type ArchivedBlock } from '../devnet/chain';
import { generateHistory, liveStartTime } from '../devnet/scenario';
import { createCast, privateKey } from '../devnet/scenario/accounts';
import { DEFAULT_CHAIN_CONFIG } from '../src/lib/config';

const WHOLE = 1_000_000n;

interface Side {
  n: number;
  /** stable paid in (buys) or received (sells) */
  stable: bigint;
  units: bigint;
}

type Row = Record<string, { buy: Side; sell: Side }>;

const side = (): Side => ({ n: 0, stable: 0n, units: 0n });
const fmt = (v: bigint) => (v / WHOLE).toLocaleString('en-US');

/** Per-period and total swaps of one pool, by who signed them. */
class Tally {
  private row: Row = {};
  readonly total: Row = {};

  constructor(
    private readonly assetId: string,
    private readonly whoIs: (address: string) => string,
  ) {}

  /** Counts the pool's swaps among a block's successful tx results. */
  add(
    results: readonly {
      code: number;
      events: readonly { type: string; attributes: readonly { key: string; value: string }[] }[];
    }[],
  ): void {
    for (const result of results) {
      if (result.code !== 0) continue;
      for (const e of result.events) {
        if (e.type !== 'svc.dex.v1.EventSwapped') continue;
        const a = Object.fromEntries(e.attributes.map((x) => [x.key, JSON.parse(x.value) as unknown]));
        if (a.asset_id !== this.assetId) continue;
        const sell = a.sell_base === true;
        const stable = BigInt(String(sell ? a.amount_out : a.amount_in));
        const units = BigInt(String(sell ? a.amount_in : a.amount_out));
        const who = this.whoIs(String(a.trader));
        for (const r of [this.row, this.total]) {
          r[who] ??= { buy: side(), sell: side() };
          const s = sell ? r[who].sell : r[who].buy;
          s.n += 1;
          s.stable += stable;
          s.units += units;
        }
      }
    }
  }

  static header(stock: boolean): string {
    const more = stock ? ' holders free bundles / VOTE locked % | desk, lender, visitor shares (kind 0) |' : '';
    return `| sim h | LNW price | holders buy (n / stable) | holders sell (n / stable) | others buy | others sell | net bought (stable) |${more}\n|---|---|---|---|---|---|---|${stock ? '---|---|' : ''}`;
  }

  /** The period's line, and a new period. */
  line(simHours: number, price: number, stock = ''): string {
    const row = this.row;
    this.row = {};
    const cell = (who: string, s: 'buy' | 'sell') =>
      row[who] ? `${row[who][s].n} / ${fmt(row[who][s].stable)}` : '0 / 0';
    const net = Object.values(row).reduce((n, x) => n + x.buy.stable - x.sell.stable, 0n);
    const others = (s: 'buy' | 'sell') =>
      Object.entries(row)
        .filter(([w, x]) => w !== 'holders' && x[s].n > 0)
        .map(([w, x]) => `${w} ${x[s].n} / ${fmt(x[s].stable)}`)
        .join(', ') || '0';
    return `| ${simHours.toFixed(2)} | ${price.toFixed(3)} | ${cell('holders', 'buy')} | ${cell('holders', 'sell')} | ${others('buy')} | ${others('sell')} | ${fmt(net)} |${stock}`;
  }

  totals(): string {
    return Object.entries(this.total)
      .map(
        ([w, x]) =>
          `${w}: bought ${x.buy.n} / ${fmt(x.buy.stable)} stable, sold ${x.sell.n} / ${fmt(x.sell.stable)}; net ${fmt(x.buy.stable - x.sell.stable)}`,
      )
      .join('\n');
  }
}

/** The cast's roles, and the soak's accounts (bench/soak-services.ts, bench/lib/soak-attacks.ts) by name. */
async function namer(seed: string, hrp: string): Promise<(address: string) => string> {
  const cast = await createCast({ seed, hrp });
  const names = new Map<string, string>();
  for (const h of cast.holders) names.set(h.address, 'holders');
  for (const [role, actor] of Object.entries(cast.roles)) names.set(actor.address, role);
  const soakNames = ['soak-borrower', 'soak-trader-a', 'soak-trader-b'];
  for (const n of soakNames) names.set(await addressOf(seed, n, hrp), 'soak-honest');
  for (let round = 0; round < 200; round++)
    for (const n of ['pumper', 'pumpholder', 'squatter', 'spammer', 'sybil'])
      names.set(await addressOf(seed, `${n}-${round}`, hrp), n);
  return (address) => names.get(address) ?? 'others';
}

async function addressOf(seed: string, name: string, hrp: string): Promise<string> {
  const wallet = await DirectSecp256k1Wallet.fromKey(privateKey(seed, name), hrp);
  return (await wallet.getAccounts())[0].address;
}

function priceOfReserves(base: bigint, quote: bigint): number {
  return base > 0n ? Number(quote) / Number(base) : NaN;
}

/** `--archive DIR`: the swaps of a chain already made (an npm start data dir's devnet/archive, copied). */
async function fromArchive(dir: string, seed: string, fromHeight: number, everyBlocks: number): Promise<void> {
  const archive = BlockArchive.open(dir);
  const whoIs = await namer(seed, DEFAULT_CHAIN_CONFIG.hrp);
  const cast = await createCast({ seed, hrp: DEFAULT_CHAIN_CONFIG.hrp });
  // the main equity's pool: the one its issuer created
  let assetId: string | undefined;
  for (let h = 1; h <= archive.height && !assetId; h++)
    for (const r of archive.read(h)!.txResults)
      for (const e of r.code === 0 ? r.events : [])
        if (e.type === 'svc.dex.v1.EventPoolCreated') {
          const a = Object.fromEntries(e.attributes.map((x) => [x.key, JSON.parse(x.value) as unknown]));
          if (a.creator === cast.roles['issuer-equity'].address) assetId = String(a.asset_id);
        }
  if (!assetId) throw new Error('no pool of the main equity in the archive');
  const tally = new Tally(assetId, whoIs);
  let price = NaN;
  const track = (results: ArchivedBlock['txResults']) => {
    for (const r of results)
      for (const e of r.code === 0 ? r.events : [])
        if (e.type === 'svc.dex.v1.EventSwapped') {
          const a = Object.fromEntries(e.attributes.map((x) => [x.key, JSON.parse(x.value) as unknown]));
          if (a.asset_id === assetId)
            price = priceOfReserves(BigInt(String(a.base_reserve_after)), BigInt(String(a.quote_reserve_after)));
        }
  };
  for (let h = 1; h < fromHeight; h++) track(archive.read(h)!.txResults);
  console.log(
    `# world flow from ${dir}: LNW (${assetId}) from height ${fromHeight} to ${archive.height}, price ${price.toFixed(3)}`,
  );
  console.log(Tally.header(false));
  for (let h = fromHeight; h <= archive.height; h++) {
    const { txResults } = archive.read(h)!;
    tally.add(txResults);
    track(txResults);
    const i = h - fromHeight + 1;
    if (i % everyBlocks === 0 || h === archive.height) console.log(tally.line(i / 3600, price));
  }
  console.log(`\n${tally.totals()}`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      hours: { type: 'string', default: '24' },
      seed: { type: 'string', default: 'svc-devnet' },
      'block-ms': { type: 'string', default: '1000' },
      'txs-per-block': { type: 'string', default: '10' },
      'history-blocks': { type: 'string', default: '200' },
      'every-h': { type: 'string', default: '1' },
      'no-services-mode': { type: 'boolean', default: false },
      archive: { type: 'string' },
      'from-height': { type: 'string', default: '221' },
    },
  });
  const blockMs = Number(values['block-ms']);
  if (values.archive)
    return fromArchive(
      values.archive,
      values.seed!,
      Number(values['from-height']),
      Math.round(Number(values['every-h']) * 3600),
    );
  const blocks = Math.ceil((Number(values.hours) * 3_600_000) / blockMs);
  const everyBlocks = Math.max(1, Math.round((Number(values['every-h']) * 3_600_000) / blockMs));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'world-flow-'));
  const archive = BlockArchive.open(dir);
  const started = Date.now();
  const history = await generateHistory({
    seed: values.seed!,
    blocks: Number(values['history-blocks']),
    txsPerBlock: Number(values['txs-per-block']),
    startTimeMs: liveStartTime({ seed: values.seed!, blocks: Number(values['history-blocks']) }, blockMs),
    skipSignatureVerification: true,
    memory: { stateRetention: { keepRecent: 100 }, archive, recentBlocks: 200 },
  });
  const engine = history.engine;
  const errors = new Map<string, number>();
  engine.enterLiveMode(blockMs, (flow) => errors.set(flow, (errors.get(flow) ?? 0) + 1), {
    servicesMode: !values['no-services-mode'],
  });
  const world = engine.world;
  const equity = [...world.assets.values()].find((a) => a.key === 'equity');
  if (!equity) throw new Error('no equity launched in the history');
  const whoIs = await namer(values.seed!, world.config.hrp);
  const price = () => {
    const p = world.view.pool(equity.assetId, world.config.stableDenom);
    return p ? priceOfReserves(p.base, p.quote) : NaN;
  };
  console.log(
    `# world flow: seed ${values.seed}, ${blocks} live blocks of ${blockMs} ms after ${values['history-blocks']} of history; ` +
      `services mode ${!values['no-services-mode']}; LNW (${equity.assetId}) at ${price().toFixed(3)}`,
  );
  console.log(Tally.header(true));
  const kinds = Array.from({ length: equity.kindCount }, (_, k) => k);
  const VOTE = 2;
  // what the holders could sell into the pool now (whole bundles), how much of their VOTE kind is locked, and the services' stock
  const stock = () => {
    let free = 0n;
    let vote = 0n;
    let locked = 0n;
    for (const h of world.cast.holders) {
      const each = kinds.map((k) => world.view.position(equity.assetId, k, h.address));
      free += each.reduce((m, p) => (p.transferable < m ? p.transferable : m), each[0].transferable);
      vote += each[VOTE]?.units ?? 0n;
      locked += each[VOTE]?.locked ?? 0n;
    }
    const kind0 = (a: string) => fmt(world.view.position(equity.assetId, 0, a).units);
    const r = world.cast.roles;
    return ` ${fmt(free)} / ${vote > 0n ? Number((locked * 1000n) / vote) / 10 : 0} % | ${kind0(r.desk.address)}, ${kind0(r.lender.address)}, ${kind0(r.visitor.address)} |`;
  };
  console.log(`| 0.00 | ${price().toFixed(3)} | | | | | |${stock()}`);
  const tally = new Tally(equity.assetId, whoIs);
  let t = world.chain.lastBlockTimeMs;
  for (let i = 1; i <= blocks; i++) {
    t += blockMs;
    const block = await engine.runBlock(t);
    tally.add(block.txHashes.map((h) => world.chain.tx(h)!.result));
    if (i % everyBlocks === 0 || i === blocks) console.log(tally.line((i * blockMs) / 3_600_000, price(), stock()));
  }
  console.log(`\n${tally.totals()}`);
  console.log(
    `flow errors: ${JSON.stringify(Object.fromEntries(errors))}; wall ${Math.round((Date.now() - started) / 1000)} s`,
  );
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
