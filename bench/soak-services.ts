/**
 * `npm run soak:services -- [--hours 24] [--block-ms 250] [--round-s 150] [--attacks squat,junk,pump,pump-hold,sybil,look-alike]
 *   [--max-rounds N] [--max-wall-h H] [--out FILE] [--seed svc-devnet]`
 *
 * `npm start`'s default world (embedded PostgreSQL, the devnet with its live scenario, the
 * lender and the desk) on faster blocks, with an honest borrower, seller and buyer acting every
 * round while a patient attacker repeats issue 43's probes, one per round in turn
 * (bench/lib/soak-attacks.ts). `--hours` is simulated time: one block is one second of the
 * default world's flow (a block every 1 s), so 24 hours is 86,400 blocks, at `--block-ms` 250
 * six hours of wall time. The services' own clocks (RFQ lifetime, the pledge window, cool-offs)
 * run on wall time, so they last 1000 / block-ms times longer in blocks than on the default
 * world: a conservative soak for refusals that end by themselves.
 *
 * Every round prints one line: the attack and what it got, each honest action served (with its
 * figures) or refused (with the service's reason), and the services' state (the desk's LNW and
 * HBC sides, the lender's LNW capacity, losses charged and the desk's exposure at cost against
 * their caps). The end prints served / refused per action with the reasons and, with `--out`,
 * writes the same as a markdown table.
 *
 * CPU-heavy: the whole of npm start runs beside it. Figures are of one run on this machine.
 */
import { spawn } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { parseArgs } from 'util';
import { Pool } from 'pg';
import { connectChain } from '../app-services/chain/chain-client';
import { ChainQueries } from '../app-services/chain/queries';
import { runExample } from '../examples/services';
import { APP_SETTINGS } from '../app-services/settings';
import { loadChainConfig } from '../src/lib/config';
import { readSetting } from '../src/lib/settings';
import { runningEmbeddedDatabase } from '../src/runtime/postgres/running';
import { freePort } from '../src/runtime/ports';
import { runningStart } from '../src/runtime/running-file';
import {
  ATTACKS,
  getJson,
  parseAttacks,
  runAttack,
  type AttackName,
  type AttackOutcome,
  type Json,
  type SoakContext,
} from './lib/soak-attacks';
import { SoakActor } from './lib/soak-actor';

const ROOT = path.resolve(__dirname, '..');
const WHOLE = 1_000_000n;
const READY_TIMEOUT_MS = 600_000;
/** the lender's pledge window (LENDER_PLEDGE_WINDOW_S, 120 s) and a minute for the release */
const MISTAKE_CHECK_MS = 180_000;
/** a refused honest action is tried again every 15 s for 5 minutes ("ends by itself within minutes") */
const RETRY_EVERY_MS = 15_000;
const RETRY_MS = 300_000;

interface Options {
  hours: number;
  blockMs: number;
  roundS: number;
  attacks: AttackName[];
  maxRounds: number;
  /** wall-clock hours after which the soak stops at a round's end and still prints its summary */
  maxWallH: number;
  out?: string;
  seed: string;
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      hours: { type: 'string', default: '24' },
      'block-ms': { type: 'string', default: '250' },
      'round-s': { type: 'string', default: '150' },
      attacks: { type: 'string', default: ATTACKS.join(',') },
      'max-rounds': { type: 'string', default: '1000000' },
      'max-wall-h': { type: 'string', default: '1000' },
      out: { type: 'string' },
      seed: { type: 'string', default: 'svc-devnet' },
    },
  });
  const positive = (name: string, raw: string) => {
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0) throw new RangeError(`--${name} must be a positive number, got ${raw}`);
    return n;
  };
  const attacks = parseAttacks(values.attacks!);
  return {
    hours: positive('hours', values.hours!),
    blockMs: Math.round(positive('block-ms', values['block-ms']!)),
    roundS: positive('round-s', values['round-s']!),
    attacks,
    maxRounds: Math.round(positive('max-rounds', values['max-rounds']!)),
    maxWallH: positive('max-wall-h', values['max-wall-h']!),
    out: values.out,
    seed: values.seed!,
  };
}

/**
 * One honest action's outcome: served (at once, or after waiting out a refusal) with its
 * figures, or refused for the whole of `RETRY_MS` with the service's words.
 */
interface Honest {
  action: 'borrow' | 'repay' | 'sell' | 'buy';
  served: boolean;
  /** seconds from the first refusal to being served (0: served at once) */
  waitedS: number;
  /** the first refusal's reason, when there was one */
  refusal?: string;
  detail: string;
}

interface Round {
  round: number;
  simHours: number;
  attack?: AttackOutcome;
  honest: Honest[];
  state: string;
  /** the junk round's honest mistaken pledge, checked once the lender's pledge window is over */
  mistakenPledge?: string;
  mistakenAtMs?: number;
}

/** The service's reason of a refusal, shortened. */
function reasonOf(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m.length > 240 ? `${m.slice(0, 240)}…` : m;
}

/** As a person would: a refused action is tried again every RETRY_EVERY_MS, for RETRY_MS. */
async function honestAction(
  action: Honest['action'],
  run: () => Promise<Json>,
  describe: (r: Json) => string,
): Promise<Honest> {
  const began = Date.now();
  let refusal: string | undefined;
  for (;;) {
    try {
      const detail = describe(await run());
      return { action, served: true, waitedS: Math.round((Date.now() - began) / 1000), refusal, detail };
    } catch (e) {
      refusal ??= reasonOf(e);
      const waitedS = Math.round((Date.now() - began) / 1000);
      if (Date.now() - began >= RETRY_MS) return { action, served: false, waitedS, refusal, detail: refusal };
      await new Promise((r) => setTimeout(r, RETRY_EVERY_MS));
    }
  }
}

const describeHonest = (h: Honest) =>
  h.served
    ? `${h.action} served${h.refusal ? ` after ${h.waitedS} s (refused first: ${h.refusal})` : ''} (${h.detail})`
    : `${h.action} REFUSED for ${h.waitedS} s (${h.detail})`;

async function serviceState(ctx: SoakContext, db: Pool, hbc: string | undefined): Promise<string> {
  const { body: q } = await getJson(`${ctx.url}/api/desk/quotes`);
  const side = (assetId: string | undefined) => {
    const w = (q.quotes as Json[]).find((x) => x.asset_id === assetId && x.kind === -1);
    if (!w) return 'not quoted';
    return `bid ${w.bid === null ? `withheld ${w.bid_withheld}` : 'on'}, ask ${w.ask === null ? `withheld ${w.ask_withheld}` : 'on'}`;
  };
  const { body: terms } = await getJson(`${ctx.url}/api/lender/terms`);
  const cap = (terms.capacity as Json[]).find((c) => c.asset_id === ctx.lnw.assetId);
  const money = (s: string | null | undefined) => (BigInt(s ?? '0') / WHOLE).toLocaleString('en-US');
  const losses = await db.query<{ source: string; amount: string }>(
    `SELECT source, coalesce(sum(amount), 0)::text AS amount FROM app.risk_losses WHERE reset_at IS NULL GROUP BY source`,
  );
  const exposure = await db.query<{ value: string }>(
    `SELECT coalesce(sum(value), 0)::text AS value FROM app.desk_exposure`,
  );
  const lent = await db.query<{ principal: string }>(
    `SELECT coalesce(sum(principal), 0)::text AS principal FROM app.loans WHERE status IN ('opening', 'active')`,
  );
  const lost = (s: string) => money(losses.rows.find((r) => r.source === s)?.amount);
  return [
    `LNW ${side(ctx.lnw.assetId)}`,
    `HBC ${side(hbc)}`,
    `lender LNW capacity ${money(cap?.lendable)}${cap?.limited_by ? ` (${cap.limited_by})` : ''}`,
    `lent ${money(lent.rows[0].principal)}`,
    `losses lender ${lost('lender')} desk ${lost('desk')}`,
    `desk exposure at cost ${money(exposure.rows[0].value)}`,
  ].join('; ');
}

async function waitReady(base: string, exited: () => boolean): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exited()) throw new Error('npm start exited before it was ready (see its log)');
    const ok = await fetch(`${base}/ready`)
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`npm start was not ready within ${READY_TIMEOUT_MS / 1000} s`);
}

function summary(rounds: Round[]): string[] {
  const lines: string[] = [];
  const shape = (reason: string) => reason.replace(/[0-9a-f]{64}/g, '<id>').replace(/\d[\d,.]*/g, 'N');
  for (const action of ['borrow', 'repay', 'sell', 'buy'] as const) {
    const all = rounds.flatMap((r) => r.honest.filter((h) => h.action === action));
    const atOnce = all.filter((h) => h.served && !h.refusal).length;
    const waited = all.filter((h) => h.served && h.refusal);
    const refused = all.filter((h) => !h.served);
    const reasons = (list: Honest[]) => {
      const n = new Map<string, number>();
      for (const h of list) n.set(shape(h.refusal!), (n.get(shape(h.refusal!)) ?? 0) + 1);
      return [...n].map(([k, c]) => `${c}× ${k}`).join(' | ');
    };
    lines.push(
      `${action}: ${all.length} tried, served at once ${atOnce}, served after a wait ${waited.length}` +
        (waited.length ? ` (longest ${Math.max(...waited.map((h) => h.waitedS))} s; ${reasons(waited)})` : '') +
        `, refused for ${RETRY_MS / 1000} s ${refused.length}` +
        (refused.length ? ` (${reasons(refused)})` : ''),
    );
  }
  for (const attack of new Set(rounds.map((r) => r.attack?.attack).filter(Boolean))) {
    const runs = rounds.filter((r) => r.attack?.attack === attack);
    lines.push(`attack ${attack}: ${runs.length} runs, its bound held in ${runs.filter((r) => r.attack!.held).length}`);
  }
  return lines;
}

function markdown(o: Options, rounds: Round[], tail: string[]): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const rows = rounds.map(
    (r) =>
      `| ${r.round} | ${r.simHours.toFixed(2)} | ${cell(r.attack ? `${r.attack.attack}: ${r.attack.result}` : '')} | ${cell(
        r.honest.map(describeHonest).join('<br>'),
      )} | ${cell(r.state)} |`,
  );
  return [
    `# soak:services, ${new Date().toISOString().slice(0, 10)}`,
    '',
    `Command: \`npm run soak:services -- --hours ${o.hours} --block-ms ${o.blockMs} --round-s ${o.roundS}\``,
    '',
    ...tail.map((l) => `- ${l}`),
    '',
    '| round | simulated h | attack | honest actions | services after |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const o = options();
  const log = (l: string) => console.log(`[soak:services] ${l}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'soak-services-'));
  fs.chmodSync(dataDir, 0o755);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const logFile = path.join(dataDir, 'npm-start.log');
  const out = fs.openSync(logFile, 'a');
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir };
  for (const v of ['CHAIN_RPC_URL', 'CHAIN_ID', 'DATABASE_URL', 'DB_SCHEMA']) delete env[v];
  Object.assign(env, {
    DEVNET_PORT: '0',
    DEVNET_BLOCK_MS: String(o.blockMs),
    // ready within 10 s of the chain, as the default's 10 blocks are at 1 s: at 60 ms blocks the node's
    // ~1 s from commit to index is 15–20 blocks, and /ready would never answer 200
    READY_MAX_LAG_BLOCKS: String(Math.max(10, Math.ceil(10_000 / o.blockMs))),
    LOG_FORMAT: 'json',
    DEVNET_SEED: o.seed,
  });
  const child = spawn(path.join(ROOT, 'node_modules', '.bin', 'ts-node'), ['--transpile-only', 'launcher/start.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', out, out],
  });
  let exited = false;
  child.once('exit', () => (exited = true));
  const rounds: Round[] = [];
  let db: Pool | undefined;
  const stop = async () => {
    if (!exited) child.kill('SIGINT');
    await new Promise((r) => (exited ? r(undefined) : child.once('exit', r)));
  };
  process.once('SIGINT', () => void stop().then(() => process.exit(130)));
  try {
    log(`npm start on ${base}, DATA_DIR ${dataDir} (log ${logFile}), blocks every ${o.blockMs} ms`);
    await waitReady(base, () => exited);
    const running = runningStart(dataDir);
    const pg = runningEmbeddedDatabase(dataDir);
    if (!running?.rpc || !pg) throw new Error('npm start is ready but its DATA_DIR names no chain RPC or database');
    db = new Pool({ connectionString: pg.url, max: 2 });
    db.on('error', () => undefined);
    const config = loadChainConfig(process.env);
    const chain = await connectChain(running.rpc);
    const queries = new ChainQueries(running.rpc);
    const funder = await SoakActor.open('visitor', o.seed, chain, config);
    const { body: quotes } = await getJson(`${base}/api/desk/quotes`);
    const assetOf = (symbol: string) =>
      (quotes.quotes as Json[]).find((q) => q.symbol === symbol)?.asset_id as string | undefined;
    const lnwId = assetOf('LNW');
    if (!lnwId) throw new Error('the desk does not quote LNW on this world');
    const kinds = ((await getJson(`${base}/v1/assets/${lnwId}`)).body.asset.kinds as Json[]).map((k) =>
      Number(k.kind_id),
    );
    const pool = await queries.poolPrice(lnwId, config.stableDenom);
    const { body: terms } = await getJson(`${base}/api/lender/terms`);
    const ctx: SoakContext = {
      url: base,
      rpc: running.rpc,
      seed: o.seed,
      config,
      chain,
      queries,
      funder,
      lender: terms.lender,
      desk: (await SoakActor.open('desk', o.seed, chain, config)).address,
      db,
      lnw: { symbol: 'LNW', assetId: lnwId, kinds, poolId: pool!.poolId },
      round: 0,
      poolSettleBlocks: 130,
      // npm start was given this process's environment: its window is the same setting read here
      priceWindowBlocks: readSetting(process.env, APP_SETTINGS.market.windowBlocks),
      log,
    };
    const lnw = (shares: bigint) => [{ assetId: lnwId, kinds, units: shares * WHOLE }];
    const borrower = await SoakActor.open('soak-borrower', o.seed, chain, config);
    const traders = [
      await SoakActor.open('soak-trader-a', o.seed, chain, config),
      await SoakActor.open('soak-trader-b', o.seed, chain, config),
    ];
    await funder.fund(borrower, 20_000n * WHOLE, lnw(2000n));
    for (const t of traders) await funder.fund(t, 20_000n * WHOLE, lnw(1500n));
    const startHeight = await chain.height();
    const blocksWanted = Math.ceil(o.hours * 3600);
    log(
      `ready; honest users funded; soaking ${o.hours} simulated h (${blocksWanted} blocks) from height ${startHeight}`,
    );
    const example = (account: string, amount?: bigint) => ({
      url: base,
      rpc: running.rpc!,
      asset: 'LNW',
      account,
      seed: o.seed,
      amount,
      log: () => undefined,
    });
    let pendingMistake: Round | undefined;
    const soakBegan = Date.now();
    for (let r = 0; r < o.maxRounds; r++) {
      const began = Date.now();
      const simHours = ((await chain.height()) - startHeight) / 3600;
      if (simHours * 3600 >= blocksWanted) break;
      if (began - soakBegan >= o.maxWallH * 3_600_000) {
        log(`stopping at --max-wall-h ${o.maxWallH} after ${simHours.toFixed(2)} simulated h`);
        break;
      }
      ctx.round = r;
      const round: Round = { round: r, simHours, honest: [], state: '' };
      if (pendingMistake?.mistakenPledge && Date.now() - pendingMistake.mistakenAtMs! > MISTAKE_CHECK_MS) {
        const e = await queries.encumbrance(BigInt(pendingMistake.mistakenPledge));
        const s = Math.round((Date.now() - pendingMistake.mistakenAtMs!) / 1000);
        pendingMistake.attack!.result += `; the honest mistaken pledge ${pendingMistake.mistakenPledge} was ${e?.status ?? 'unknown'} ${s} s later`;
        // both bounds: the services spent no more than the spammer did, and the honest pledge was released
        pendingMistake.attack!.held &&= e?.status !== 'ENCUMBRANCE_STATUS_ACTIVE';
        pendingMistake = undefined;
      }
      if (o.attacks.length) {
        const name = o.attacks[r % o.attacks.length];
        try {
          const a = await runAttack(name, ctx, borrower);
          round.attack = a;
          if (a.mistaken) {
            round.mistakenPledge = a.mistaken;
            round.mistakenAtMs = Date.now();
            pendingMistake = round;
          }
        } catch (e) {
          round.attack = { attack: name, result: `the attack itself failed: ${reasonOf(e)}`, held: true };
        }
      }
      const [seller, buyer] = r % 2 === 0 ? traders : [traders[1], traders[0]];
      const borrowed = await honestAction(
        'borrow',
        () => runExample('borrow', example(borrower.name, 1000n)),
        (l) => `${BigInt(l.principal) / WHOLE} in ${l.blocks_after_last_pledge} blocks`,
      );
      round.honest.push(borrowed);
      if (round.attack?.needsHonestBorrow) {
        // case 1's point: a stranger's liquidation must not freeze a listed asset for its next borrower
        round.attack.result += `; the next honest LNW borrower ${describeHonest(borrowed)}`;
        round.attack.held &&= borrowed.served;
      }
      // a repayment only of a loan the round opened (a refused borrow leaves nothing to repay)
      if (borrowed.served)
        round.honest.push(
          await honestAction(
            'repay',
            () => runExample('repay', example(borrower.name)),
            (l) => `loan ${l.id} ${l.status}`,
          ),
        );
      round.honest.push(
        await honestAction(
          'sell',
          () => runExample('sell', example(seller.name, 250n)),
          (t) => `${BigInt(t.units) / WHOLE} shares for ${BigInt(t.amount) / WHOLE}`,
        ),
        await honestAction(
          'buy',
          () => runExample('buy', example(buyer.name, 250n)),
          (t) => `${BigInt(t.units) / WHOLE} shares for ${BigInt(t.amount) / WHOLE}`,
        ),
      );
      round.state = await serviceState(ctx, db, assetOf('HBC')).catch((e) => `state unreadable: ${reasonOf(e)}`);
      rounds.push(round);
      log(
        `round ${r} at ${simHours.toFixed(2)} simulated h: ${round.attack ? `${round.attack.attack}: ${round.attack.result} | ` : ''}` +
          round.honest.map(describeHonest).join(', ') +
          ` | ${round.state}`,
      );
      if (exited) throw new Error('npm start exited during the soak (see its log)');
      const rest = began + o.roundS * 1000 - Date.now();
      if (rest > 0) await new Promise((res) => setTimeout(res, rest));
    }
    chain.disconnect();
    const tail = summary(rounds);
    for (const l of tail) log(l);
    if (o.out) fs.writeFileSync(o.out, markdown(o, rounds, tail));
    console.log(JSON.stringify({ bench: 'soak-services', options: o, rounds }));
  } finally {
    await db?.end();
    await stop();
    fs.closeSync(out);
  }
}

if (require.main === module) {
  main().catch((e) => {
    console.error(`[soak:services] ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
}
