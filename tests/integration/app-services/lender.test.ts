/**
 * The lender end to end: the devnet live, the real SubQuery node indexing it, the lender
 * acting through the app services, real HTTP. Each case drives the chain as a borrower or a
 * trader would and asserts the loans list (validated against app-services/openapi.yaml) and
 * the chain state through /v1 and the chain's own balances.
 */
import { spawn, type ChildProcess } from 'child_process';
import path from 'path';
import { APP_SERVICES_DEFAULTS } from '../../../app-services/config';
import { documentHash, parseMetadataDocument } from '../../../app-services/launchpad/document';
import { KeySecret } from '../../../app-services/keys';
import { RiskRepository } from '../../../app-services/risk/repository';
import { mustLiquidate, principalFor, DEFAULT_LENDER_TERMS } from '../../../app-services/lender/terms';
import { sharesValue } from '../../../app-services/market/units';
import { ChainQueries } from '../../../app-services/chain/queries';
import { toEvmAddress } from '../../../src/lib/address';
import { STABLE_DENOM } from '../../harness/app-chain';
import { launchEquity, startLiveWorld, type EquityAsset, type LiveWorld, type Msg } from '../../harness/live-world';
import type { TestKey } from '../../harness/app-chain';
import { until as waitFor } from '../../harness/until';
import { startAppApi, type AppApi } from './api';

jest.setTimeout(120_000);

const REPO = path.resolve(__dirname, '..', '..', '..');
const WHOLE = 1_000_000n;
const WINDOW_S = 6;
const DOC = {
  name: 'Lantern Test Works',
  symbol: 'LTW',
  description: 'An equity test asset. Testnet only; it has no value.',
  template: 'equity',
};
const parsed = parseMetadataDocument(DOC);
if (!parsed.ok) throw new Error(parsed.error);
const META_HASH = documentHash(parsed.doc);

let world: LiveWorld;
let asset: EquityAsset;
let api: AppApi | undefined;
let k: Record<'lender' | 'issuer' | 'borrower' | 'late' | 'flagged' | 'trader' | 'crash', TestKey>;

const lenderSettings = (lenderHex: string) => ({
  keys: { lender: new KeySecret(lenderHex, 'LENDER_KEY') },
  inclusionTimeoutMs: 10_000,
  reconcileMs: 500,
  lockRetryMs: 200,
  lender: {
    ...APP_SERVICES_DEFAULTS.lender,
    pledgeWindowMs: WINDOW_S * 1000,
    pollMs: 250,
    claimEveryMs: 2000,
    dust: 0n, // the test's junk proposal asks for 5 base units
    // the liquidation's seized shares are sold back in a few big slices, one a block
    saleImpactBps: 1000,
    saleEveryBlocks: 1,
  },
  // the test pool is seconds old: a window and an age of 5 blocks (300 ms each)
  market: { ...APP_SERVICES_DEFAULTS.market, windowBlocks: 5, minPoolAgeBlocks: 5, minPoolReserve: 1_000_000n },
  // the liquidation test's loss would otherwise stop lending against the test asset for a day
  risk: { ...APP_SERVICES_DEFAULTS.risk, lossCooloffMs: 0 },
});

async function startLender(): Promise<AppApi> {
  return startAppApi({
    database: { pool: world.pool, url: world.db.url },
    chain: { rpcUrl: world.rpcUrl },
    devnetDocuments: [DOC],
    settings: lenderSettings(k.lender.hex),
  });
}

beforeAll(async () => {
  world = await startLiveWorld({ keys: ['lender', 'issuer', 'borrower', 'late', 'flagged', 'trader', 'crash'] });
  k = world.keys as typeof k;
  asset = await launchEquity(world, {
    issuer: k.issuer,
    metaHash: META_HASH,
    holders: ['borrower', 'late', 'flagged', 'trader', 'crash'].map((name) => ({
      key: world.keys[name],
      units: 10_000n * WHOLE,
    })),
    poolShares: 1000n,
    poolQuote: 2_000_000_000n, // 2 stable units per whole share
  });
  api = await startLender();
});

afterAll(async () => {
  await api?.close();
  await world?.close();
});

interface LoanBody {
  id: string;
  symbol: string | null;
  units: string;
  principal: string;
  ltv_bps: number | null;
  open_tx: string | null;
  status: string;
  close_tx: string | null;
  routed_income: string;
  pledges: number[];
}

async function loansOf(address: string): Promise<LoanBody[]> {
  const r = await api!.request<{ loans: LoanBody[] }>('GET', `/api/lender/loans?address=${address}`);
  expect(r.status).toBe(200);
  return r.body.loans;
}

const until = <T>(what: string, probe: () => Promise<T | undefined>) =>
  waitFor(what, probe, { ms: 45_000, context: () => `app errors: ${api?.errors.join('\n')}` });

function pledgeMsg(holder: TestKey, kindId: number, units: bigint, extra: Record<string, unknown> = {}): Msg {
  return {
    typeUrl: '/svc.encumbrance.v1.MsgCreateEncumbrance',
    value: {
      creator: holder.address,
      kind: 'ENCUMBRANCE_KIND_PLEDGE',
      asset_id: asset.assetId,
      kind_id: kindId,
      holder: holder.address,
      units: units.toString(),
      beneficiary: k.lender.address,
      income_to_beneficiary: true,
      exercisable: true,
      ...extra,
    },
  };
}

/** One pledge per tx, for the given kinds; their encumbrance ids. */
async function pledge(
  holder: TestKey,
  units: bigint,
  kinds = [0, 1, 2],
  extra: Record<string, unknown> = {},
): Promise<number[]> {
  const ids: number[] = [];
  for (const kind of kinds) {
    const tx = await world.submit(holder, [pledgeMsg(holder, kind, units, extra)]);
    expect(tx.code).toBe(0);
    ids.push(Number(tx.responses[0].encumbrance_id));
  }
  return ids;
}

/** The principal the terms give for `units` at the chain's pool price now. */
async function expectedPrincipal(units: bigint): Promise<bigint> {
  const price = await new ChainQueries(world.rpcUrl).poolPrice(asset.assetId, STABLE_DENOM);
  return principalFor(sharesValue(units, price!.pricePerWhole, 6), DEFAULT_LENDER_TERMS);
}

/** The message types of a committed tx, read through /v1 once the node has indexed it. */
async function typesOf(hash: string): Promise<string[]> {
  await world.waitIndexed();
  return (await world.rest<{ msgs: { '@type': string }[] }>(`/v1/txs/${hash}`)).msgs.map((m) => m['@type']);
}
const encumbranceStatus = async (id: number) =>
  (await world.rest<{ encumbrance: { status: string } }>(`/v1/encumbrances/${id}`)).encumbrance.status;

async function loanWith(address: string, status: string, pledges?: number[]): Promise<LoanBody> {
  return until(`a ${status} loan of ${address}`, async () =>
    (await loansOf(address)).find((l) => l.status === status && (!pledges || l.pledges.join() === pledges.join())),
  );
}

test('terms: the lender, 50 %, 80 %, 5000 stable units, and what it would lend against the test asset now', async () => {
  // the pool is seconds old: its age and price window fill first, and the capacity says so meanwhile
  const r = await until('the test asset to be collateral', async () => {
    const t = await api!.request<{ capacity: { lendable: string }[] }>('GET', '/api/lender/terms');
    return t.body.capacity.some((c) => c.lendable !== '0') ? t : undefined;
  });
  expect(r.body).toEqual({
    lender: k.lender.address,
    ltv_bps: 5000,
    liquidation_ltv_bps: 8000,
    max_principal: '5000000000',
    denom: STABLE_DENOM,
    pledge_window_seconds: WINDOW_S,
    capacity: [
      {
        asset_id: asset.assetId,
        symbol: 'LTW',
        // 10 % of the pool's 2,000 stable: LENDER_MAX_POOL_SHARE_BPS is the tightest cap
        lendable: '200000000',
        limited_by: 'pool_share_cap',
        detail: expect.stringMatching(/LENDER_MAX_POOL_SHARE_BPS/),
      },
    ],
  });
});

test('open → repay: the principal is paid once, the repayment is accepted with every pledge released in that tx', async () => {
  const units = 100n * WHOLE;
  const before = world.balance(k.borrower.address);
  const ids = await pledge(k.borrower, units);
  const principal = await expectedPrincipal(units);
  const loan = await loanWith(k.borrower.address, 'active', ids);
  expect(loan).toMatchObject({
    symbol: 'LTW',
    units: units.toString(),
    principal: principal.toString(),
    ltv_bps: 5000,
    close_tx: null,
    routed_income: '0',
  });
  expect(await typesOf(loan.open_tx!)).toEqual(['/cosmos.bank.v1beta1.MsgSend']);
  expect(world.balance(k.borrower.address) - before).toBe(principal);

  // income paid to the INCOME kind while the loan is open is routed to the lender, which claims it
  const distributed = 1_000_000_000n;
  const supply = 51_000n * WHOLE; // five holders' 10000 shares and the pool's 1000
  await world.submit(k.issuer, [
    {
      typeUrl: '/svc.payout.v1.MsgDistribute',
      value: {
        payer: k.issuer.address,
        asset_id: asset.assetId,
        kind_id: 1,
        amount: { denom: STABLE_DENOM, amount: distributed.toString() },
      },
    },
  ]);
  const routed = (units * ((distributed * 10n ** 18n) / supply)) / 10n ** 18n;
  await until('the routed income to be claimed', async () => {
    const { rows } = await world.pool.query(
      `SELECT sum(amount)::text AS claimed FROM app.loan_income WHERE encumbrance_id = $1`,
      [ids[1]],
    );
    return rows[0].claimed === routed.toString() ? true : undefined;
  });
  await world.waitIndexed();
  expect((await loanWith(k.borrower.address, 'active', ids)).routed_income).toBe(routed.toString());

  const proposal = await world.submit(k.borrower, [
    {
      typeUrl: '/svc.settlement.v1.MsgPropose',
      value: {
        proposer: k.borrower.address,
        counterparty: k.lender.address,
        legs: [{ direction: 'LEG_DIRECTION_GIVE', coin: { denom: STABLE_DENOM, amount: principal.toString() } }],
        expiry: new Date(Date.now() + 600_000).toISOString(),
      },
    },
  ]);
  const settlementId = Number(proposal.responses[0].settlement_id);
  const repaid = await loanWith(k.borrower.address, 'repaid', ids);
  expect(await typesOf(repaid.close_tx!)).toEqual([
    '/svc.settlement.v1.MsgAccept',
    ...ids.map(() => '/svc.encumbrance.v1.MsgRelease'),
  ]);
  await world.waitIndexed();
  const settlement = await world.rest<{ settlement: { status: string } }>(`/v1/settlements/${settlementId}`);
  expect(settlement.settlement.status).toBe('STATUS_SETTLED');
  for (const id of ids) expect(await encumbranceStatus(id)).toBe('released');
  expect(world.balance(k.borrower.address)).toBe(before); // paid once, repaid once (fees are in the gas denom)
});

test('open → the pool price falls → every pledge exercised in one tx, status liquidated', async () => {
  const units = 200n * WHOLE;
  const ids = await pledge(k.borrower, units);
  const loan = await loanWith(k.borrower.address, 'active', ids);
  // the trader sells shares into the pool until the principal is above 80 % of the shares' value
  const sold = await world.submit(k.trader, [
    {
      typeUrl: '/svc.dex.v1.MsgSwap',
      value: {
        trader: k.trader.address,
        pool_id: String(asset.poolId),
        sell_base: true,
        amount: (500n * WHOLE).toString(),
        min_out: '0',
      },
    },
  ]);
  expect(sold.code).toBe(0);
  const price = (await new ChainQueries(world.rpcUrl).poolPrice(asset.assetId, STABLE_DENOM))!.pricePerWhole;
  expect(mustLiquidate(BigInt(loan.principal), sharesValue(units, price, 6), DEFAULT_LENDER_TERMS)).toBe(true);
  const liquidated = await loanWith(k.borrower.address, 'liquidated', ids);
  expect(await typesOf(liquidated.close_tx!)).toEqual(ids.map(() => '/svc.encumbrance.v1.MsgExercise'));
  await world.waitIndexed();
  for (const id of ids) expect(await encumbranceStatus(id)).toBe('exercised');
  // ltv_bps follows the indexed pool: above the threshold now
  expect((await loanWith(k.borrower.address, 'liquidated', ids)).ltv_bps).toBeGreaterThanOrEqual(8000);
  // the seized shares are sold back into the pool; what they fetch short of the principal is
  // charged against the asset's room until an operator resets it
  const risk = new RiskRepository(world.pool, 'app', 'svc');
  const loss = await until('the seized shares sold and the loss charged', async () =>
    (await risk.charged()).find((l) => l.ref === `lender/liquidate/${loan.id}`),
  );
  const { rows: sales } = await world.pool.query<{ units: string; proceeds: string }>(
    `SELECT units::text AS units, proceeds::text AS proceeds FROM app.pool_sales WHERE loan_id = $1 AND status = 'sold'`,
    [loan.id],
  );
  expect(sales.reduce((sum, r) => sum + BigInt(r.units), 0n)).toBe(units); // every seized share, in slices
  const proceeds = sales.reduce((sum, r) => sum + BigInt(r.proceeds), 0n);
  expect(BigInt(loss.amount)).toBe(BigInt(loan.principal) - proceeds);
  expect(proceeds).toBeGreaterThan(0n);
  expect([loss.source, loss.asset_id, loss.borrower]).toEqual(['lender', asset.assetId, k.borrower.address]);
  expect(await risk.reset({ assetId: asset.assetId }, 'the test liquidation, reviewed')).toBe(1);
  expect(await risk.charged()).toEqual([]);
});

test('from the chain, not the index: with the indexer stopped, a complete set is paid within a couple of blocks of its last pledge', async () => {
  const paused = await world.pauseIndexer();
  try {
    const heights: number[] = [];
    const ids: number[] = [];
    for (const kind of [0, 1, 2]) {
      const tx = await world.submit(k.borrower, [pledgeMsg(k.borrower, kind, 20n * WHOLE)]);
      expect(tx.code).toBe(0);
      heights.push(tx.height);
      ids.push(Number(tx.responses[0].encumbrance_id));
    }
    const paid = await until('the principal in a block', async () => {
      const { rows } = await world.pool.query<{ tx_hash: string }>(
        `SELECT tx_hash FROM app.intents WHERE id = $1 AND status = 'committed'`,
        [`lender/principal/L${ids[0]}`],
      );
      return rows[0]?.tx_hash;
    });
    const lastPledge = Math.max(...heights);
    expect(world.chain.tx(paid)!.height - lastPledge).toBeLessThanOrEqual(4); // at 300 ms blocks
    expect(paused).toBeLessThan(heights[0]); // the index never saw a pledge of it
  } finally {
    world.resumeIndexer();
  }
  await loanWith(k.borrower.address, 'active');
});

test('an incomplete set is pending inside its window, opens nothing, and its pledges are released after it', async () => {
  const ids = await pledge(k.late, 50n * WHOLE, [0]);
  const pending = await until('the set listed as pending', async () => {
    await world.waitIndexed();
    return (await loansOf(k.late.address)).find((l) => l.status !== 'pending' || l.pledges.join() === ids.join());
  });
  const {
    status,
    principal,
    pledges,
    pending: left,
  } = pending as LoanBody & {
    pending?: { missing_kinds: number[]; window_seconds_left: number; window_ends_at: string };
  };
  expect([status, principal, pledges]).toEqual(['pending', '0', ids]);
  expect(left!.missing_kinds).toEqual([1, 2]);
  expect(left!.window_seconds_left).toBeGreaterThan(0);
  expect(left!.window_seconds_left).toBeLessThanOrEqual(Math.min(WINDOW_S, 120));
  expect(Date.parse(left!.window_ends_at)).toBeGreaterThan(Date.now() - 1000);
  for (const id of ids)
    await until(`pledge ${id} released`, async () =>
      (await world.waitIndexed(), await encumbranceStatus(id)) === 'released' ? true : undefined,
    );
  expect(
    (await loansOf(k.late.address)).map((l) => [l.status, (l as { reason?: string }).reason, l.principal]),
  ).toEqual([['refused', 'pledge_terms', '0']]);
});

test.each([
  ['a holder release time', { holder_release_after: new Date(Date.now() + 3_600_000).toISOString() }],
  ['an expiry', { expiry: new Date(Date.now() + 3_600_000).toISOString() }],
  ['not exercisable', { exercisable: false }],
])('a set with %s opens nothing and is released', async (_what, flags) => {
  const ids = await pledge(k.flagged, 10n * WHOLE, [0, 1, 2], flags);
  for (const id of ids)
    await until(`pledge ${id} released`, async () =>
      (await world.waitIndexed(), await encumbranceStatus(id)) === 'released' ? true : undefined,
    );
  // each pledge is refused as it is seen: one refused entry for the set, or one a pledge, as the index shows them
  const entries = (await loansOf(k.flagged.address)) as (LoanBody & { reason: string })[];
  const mine = entries.filter((l) => l.pledges.some((p) => ids.includes(p)));
  expect(mine.flatMap((l) => l.pledges).sort()).toEqual([...ids].sort());
  expect(mine.map((l) => [l.status, l.reason, l.principal])).toEqual(mine.map(() => ['refused', 'pledge_terms', '0']));
});

test('a proposal to the lender that repays no loan is cancelled at once', async () => {
  const asks = await world.submit(k.late, [
    {
      typeUrl: '/svc.settlement.v1.MsgPropose',
      value: {
        proposer: k.late.address,
        counterparty: k.lender.address,
        legs: [{ direction: 'LEG_DIRECTION_ASK', coin: { denom: STABLE_DENOM, amount: '5' } }],
        expiry: new Date(Date.now() + 600_000).toISOString(),
      },
    },
  ]);
  const id = Number(asks.responses[0].settlement_id);
  const settlement = await until('the proposal to be cancelled', async () => {
    await world.waitIndexed();
    const s = (
      await world.rest<{
        settlement: { status: string; cancel_reason: string; timeline: { event: string; actor?: string }[] };
      }>(`/v1/settlements/${id}`)
    ).settlement;
    return s.status === 'STATUS_CANCELLED' ? s : undefined;
  });
  expect(settlement.cancel_reason).toBe('');
});

test('the 0x form of a borrower lists the same loans under its bech32 address', async () => {
  const evm = toEvmAddress(k.borrower.address);
  const r = await api!.request<{ address: string; loans: LoanBody[] }>('GET', `/api/lender/loans?address=${evm}`);
  expect(r.body.address).toBe(k.borrower.address);
  expect(r.body.loans.map((l) => l.id)).toEqual((await loansOf(k.borrower.address)).map((l) => l.id));
  expect(r.body.loans.length).toBeGreaterThan(0);
});

test('bad addresses answer 400 with {error, code}', async () => {
  for (const q of [
    '',
    '?address=',
    '?address=nope',
    `?address=${k.borrower.address}&address=${k.borrower.address}`,
    '?address=0xABCDEF',
  ]) {
    const r = await api!.request<{ code: string }>('GET', `/api/lender/loans${q}`);
    expect([q, r.status, r.body.code]).toEqual([q, 400, 'bad_request']);
  }
  const post = await api!.request('POST', '/api/lender/loans', {
    body: '{}',
    headers: { 'content-type': 'application/json' },
  });
  expect([post.status, post.headers.allow]).toEqual([405, 'GET']);
});

interface LenderProcess {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** tests/harness/app-process.ts: the app services acting for the lender in a process of their own. */
function runLenderProcess(failpoint = ''): LenderProcess {
  const env = {
    ...process.env,
    DATABASE_URL: world.db.url,
    CHAIN_RPC_URL: world.rpcUrl,
    LENDER_KEY: k.lender.hex,
    LENDER_PLEDGE_WINDOW_S: String(WINDOW_S),
    RISK_LOSS_COOLOFF_S: '0',
    APP_FAILPOINT: failpoint,
  };
  const child = spawn(
    path.join(REPO, 'node_modules', '.bin', 'ts-node'),
    ['--transpile-only', path.join(REPO, 'tests/harness/app-process.ts')],
    { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, stderr })),
  );
  return { child, exited };
}

test('the lender killed after broadcasting a principal and before recording it pays the borrower exactly once', async () => {
  await api!.close(); // this process stops acting: its actor lock is released
  api = await startAppApi({
    database: { pool: world.pool, url: world.db.url },
    settings: lenderSettings(k.lender.hex),
  }); // no chain: it only reads
  const units = 30n * WHOLE;
  const before = world.balance(k.crash.address);
  const ids = await pledge(k.crash, units);
  const principal = await expectedPrincipal(units);
  await world.waitIndexed();

  const crashed = runLenderProcess('after-broadcast');
  const died = await crashed.exited;
  expect([died.signal, died.stderr]).toEqual(['SIGKILL', '']);
  const left = await world.pool.query(`SELECT status, tx_hash FROM app.intents WHERE id = $1`, [
    `lender/principal/L${ids[0]}`,
  ]);
  expect(left.rows[0].status).toBe('signed');

  const restarted = runLenderProcess();
  try {
    const loan = await loanWith(k.crash.address, 'active', ids);
    expect(loan.principal).toBe(principal.toString());
    expect(loan.open_tx).toBe(left.rows[0].tx_hash);
    expect(world.balance(k.crash.address) - before).toBe(principal);
    const { rows } = await world.pool.query(
      `SELECT count(*)::int AS n, max(attempts) AS attempts FROM app.intents WHERE id LIKE $1`,
      [`lender/principal/L${ids[0]}%`],
    );
    expect(rows[0]).toEqual({ n: 1, attempts: 1 });
  } finally {
    restarted.child.kill('SIGTERM');
    expect((await restarted.exited).code).toBe(0);
  }
});
