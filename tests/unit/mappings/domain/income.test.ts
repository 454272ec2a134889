/**
 * src/mappings/domain/income.ts on the fake store: the Claimable entries and Accrual rows each
 * rule writes (settle, settlePosition, settleForCollect, startRouting/stopRouting, openAccrual,
 * payOut, recordPaid), with the index scheme's bigint floors: each settlement floors on its own,
 * which is why entries are settled exactly when the chain settles them.
 */
import { distribute, INDEX_SCALE } from '../../../../src/lib/accrual';
import {
  checkAccrualAfter,
  isIncomeRoute,
  openAccrual,
  ownEntry,
  payOut,
  recordPaid,
  settle,
  settleForCollect,
  settlePosition,
  startRouting,
  stopRouting,
} from '../../../../src/mappings/domain/income';
import { addLock, removeLock } from '../../../../src/mappings/domain/positions';
import { getAccrual, getClaimable } from '../../../../src/mappings/entities/accruals';
import { update } from '../../../../src/mappings/entities/entity';
import { getHolding, getKind } from '../../../../src/mappings/entities/holdings';
import { load } from '../../../../src/mappings/infra/block-cache';
import type { EventCtx } from '../../../../src/mappings/infra/context';
import { Encumbrance, type Accrual, type Kind } from '../../../../src/types';
import {
  account,
  ALICE,
  ASSET,
  BOB,
  CAROL,
  claimableKey,
  DENOM,
  holdingKey,
  newWorld,
  type World,
} from '../harness/domain-world';

let w: World;
beforeEach(() => {
  w = newWorld();
});

const S = INDEX_SCALE;
const DAN = account(0x77);
const own = (holder: string, denom = DENOM, kindId = 0) =>
  w.store.row('Claimable', claimableKey(holder, '', '', ASSET, kindId, denom));
const routed = (beneficiary: string, holder: string, encId: string, denom = DENOM) =>
  w.store.row('Claimable', claimableKey(beneficiary, holder, `encumbrance/${encId}`, ASSET, 0, denom));
const earning = (row: Record<string, unknown> | undefined) =>
  row && { units: row.units, accrued: row.accrued, snapshotIndex: row.snapshotIndex };

const kindOf = async (kindId = 0): Promise<Kind> => (await getKind(ASSET, kindId))!;
const accrualOf = async (denom = DENOM): Promise<Accrual> => (await getAccrual(ASSET, 0, denom))!;
const encOf = async (id: string): Promise<Encumbrance> => (await load(Encumbrance, id))!;
/** A distribution as far as the entries see it: the accrual's index moves. */
const setIndex = async (ctx: EventCtx<unknown>, index: bigint, denom = DENOM) =>
  update(ctx, await accrualOf(denom), { index });

describe('settle', () => {
  it('moves floor(units * (index - snapshot) / 10^18) into accrued and snapshots the index', async () => {
    w.seedAccrual(5n * S + S / 2n);
    w.seedEntry(ALICE, { units: 3n, snapshotIndex: 2n * S, accrued: 1n });
    await w.block(async (ctx) =>
      settle(await getClaimable(ownEntry(ASSET, 0, DENOM, ALICE), ctx.height), await accrualOf(), ctx.height),
    );
    // 3 * 3.5 = 10.5, floored to 10
    expect(own(ALICE)).toMatchObject({ accrued: 11n, snapshotIndex: 5n * S + S / 2n, updatedHeight: w.height });
  });

  it('writes nothing when the index has not moved; settling again at the same index changes nothing', async () => {
    w.seedAccrual(4n * S);
    w.seedEntry(ALICE, { units: 2n, snapshotIndex: S });
    const settleAlice = () =>
      w.block(async (ctx) =>
        settle(await getClaimable(ownEntry(ASSET, 0, DENOM, ALICE), ctx.height), await accrualOf(), ctx.height),
      );
    await settleAlice();
    expect(earning(own(ALICE))).toEqual({ units: 2n, accrued: 6n, snapshotIndex: 4n * S });
    w.takeWrites();
    await settleAlice();
    expect(w.takeWrites()).toEqual([]);
    expect(earning(own(ALICE))).toEqual({ units: 2n, accrued: 6n, snapshotIndex: 4n * S });
  });

  it('floors each settlement on its own: three settlements of a third pay less than one of the whole', async () => {
    // one unit distributed over a supply of 3, three times: the index moves by floor(10^18 / 3) each time
    const step = distribute({ index: 0n, carryScaled: 0n, supply: 3n, amount: 1n }).indexDelta;
    w.seedAccrual(0n);
    w.seedEntry(ALICE, { units: 3n, snapshotIndex: 0n });
    w.seedEntry(BOB, { units: 3n, snapshotIndex: 0n });
    for (let i = 1n; i <= 3n; i++) {
      await w.block(async (ctx) => {
        await setIndex(ctx, i * step);
        settle(await getClaimable(ownEntry(ASSET, 0, DENOM, ALICE), ctx.height), await accrualOf(), ctx.height);
      });
    }
    await w.block(async (ctx) =>
      settle(await getClaimable(ownEntry(ASSET, 0, DENOM, BOB), ctx.height), await accrualOf(), ctx.height),
    );
    expect([own(ALICE)?.accrued, own(BOB)?.accrued]).toEqual([0n, 2n]);
    expect([own(ALICE)?.snapshotIndex, own(BOB)?.snapshotIndex]).toEqual([3n * step, 3n * step]);
  });

  it('earns nothing on zero or negative units, or on an index below the snapshot (never on chain), and does not throw', async () => {
    w.seedAccrual(3n * S);
    w.seedEntry(ALICE, { units: 0n, snapshotIndex: S, accrued: 2n });
    w.seedEntry(BOB, { units: -1n, snapshotIndex: S });
    w.seedEntry(CAROL, { units: 5n, snapshotIndex: 4n * S, accrued: 3n });
    await w.block(async (ctx) => {
      for (const who of [ALICE, BOB, CAROL])
        settle(await getClaimable(ownEntry(ASSET, 0, DENOM, who), ctx.height), await accrualOf(), ctx.height);
    });
    expect([earning(own(ALICE)), earning(own(BOB)), earning(own(CAROL))]).toEqual([
      { units: 0n, accrued: 2n, snapshotIndex: 3n * S },
      { units: -1n, accrued: 0n, snapshotIndex: 3n * S },
      { units: 5n, accrued: 3n, snapshotIndex: 3n * S },
    ]);
  });
});

describe('settlePosition / settleForCollect', () => {
  it('a kind without accrual denoms: nothing to settle, no entry created', async () => {
    w.seedKind({ holderCount: 1 });
    w.seedHolding(ALICE, 10n);
    await w.block(async (ctx) => {
      const kind = await kindOf();
      await settlePosition(ctx, kind, await getHolding(ASSET, 0, ALICE, ctx.height));
      await settleForCollect(ctx, kind, ALICE);
    });
    expect(w.takeWrites()).toEqual([]);
  });

  it('skips a listed denom without an Accrual row (nothing distributed in it)', async () => {
    w.seedKind({ holderCount: 1, accrualDenoms: ['uatom', DENOM] });
    w.seedAccrual(S);
    w.seedHolding(ALICE, 10n);
    w.seedEntry(ALICE, { units: 10n, snapshotIndex: 0n });
    await w.block(async (ctx) => settlePosition(ctx, await kindOf(), await getHolding(ASSET, 0, ALICE, ctx.height)));
    expect(own(ALICE, 'uatom')).toBeUndefined();
    expect(own(ALICE)?.accrued).toBe(10n);
  });

  it('settles only active income pledges among the locks, and not the route being started (exceptRouteId)', async () => {
    w.seedKind({ holderCount: 1, accrualDenoms: [DENOM] });
    w.seedAccrual(2n * S);
    const locks = ['e1', 'e2', 'e3', 'e4'].map((id) => ({ ref: `encumbrance/${id}`, units: '1' }));
    w.seedHolding(ALICE, 10n, { routedOut: 2n, locks: [...locks, { ref: 'settlement/s1', units: '1' }] });
    w.seedEncumbrance('e1', ALICE, BOB, 1n); // income pledge: settled
    w.seedEncumbrance('e2', ALICE, BOB, 1n); // income pledge, the one being started: skipped
    w.seedEncumbrance('e3', ALICE, BOB, 1n, { kind: 'lien', incomeToBeneficiary: false });
    w.seedEncumbrance('e4', ALICE, BOB, 1n, { incomeToBeneficiary: false });
    for (const id of ['e1', 'e2'])
      w.seedEntry(BOB, { units: 1n, snapshotIndex: 0n, routedFrom: ALICE, ref: `encumbrance/${id}` });
    await w.block(async (ctx) =>
      settlePosition(ctx, await kindOf(), await getHolding(ASSET, 0, ALICE, ctx.height), 'e2'),
    );
    expect(earning(routed(BOB, ALICE, 'e1'))).toEqual({ units: 1n, accrued: 2n, snapshotIndex: 2n * S });
    expect(earning(routed(BOB, ALICE, 'e2'))).toEqual({ units: 1n, accrued: 0n, snapshotIndex: 0n });
    expect([routed(BOB, ALICE, 'e3'), routed(BOB, ALICE, 'e4')]).toEqual([undefined, undefined]);
    // the holder's own entry, missing, is created and snapshotted (it earned nothing: no units on it yet)
    expect(earning(own(ALICE))).toEqual({ units: 0n, accrued: 0n, snapshotIndex: 2n * S });
  });

  it("on a claim, settles the claimer's position and every position routing income to the claimer, nothing else", async () => {
    w.seedKind({ holderCount: 3, accrualDenoms: [DENOM] });
    w.seedKind({ kindId: 1, accrualDenoms: [DENOM] });
    w.seedAccrual(3n * S);
    w.seedAccrual(3n * S, { kindId: 1 });
    w.seedHolding(ALICE, 2n);
    w.seedHolding(BOB, 5n, { routedOut: 1n, locks: [{ ref: 'encumbrance/e1', units: '1' }] });
    w.seedHolding(CAROL, 5n, { routedOut: 1n, locks: [{ ref: 'encumbrance/e2', units: '1' }] });
    w.seedEncumbrance('e1', BOB, ALICE, 1n); // routes Bob's income to Alice: settled
    w.seedEncumbrance('e2', CAROL, DAN, 1n); // routes Carol's income to Dan: not
    w.seedEncumbrance('e3', CAROL, ALICE, 1n, { status: 'released' });
    w.seedEncumbrance('e4', CAROL, ALICE, 1n, { incomeToBeneficiary: false });
    w.seedEncumbrance('e5', DAN, ALICE, 1n, { kindId: 1 }); // another kind
    for (const who of [ALICE, BOB, CAROL]) w.seedEntry(who, { units: 1n, snapshotIndex: 0n });
    w.seedEntry(DAN, { units: 1n, snapshotIndex: 0n, kindId: 1 });
    w.seedEntry(ALICE, { units: 1n, snapshotIndex: 0n, routedFrom: BOB, ref: 'encumbrance/e1' });
    w.seedEntry(DAN, { units: 1n, snapshotIndex: 0n, routedFrom: CAROL, ref: 'encumbrance/e2' });
    await w.block(async (ctx) => settleForCollect(ctx, await kindOf(), ALICE));
    expect(w.takeWrites().sort()).toEqual(
      [claimableKey(ALICE, '', '', ASSET, 0, DENOM), claimableKey(BOB, '', '', ASSET, 0, DENOM)]
        .concat(claimableKey(ALICE, BOB, 'encumbrance/e1', ASSET, 0, DENOM))
        .map((id) => `Claimable ${id}`)
        .sort(),
    );
    const settled = (row: Record<string, unknown> | undefined) => row?.snapshotIndex === 3n * S;
    expect({
      alice: settled(own(ALICE)),
      aliceFromBob: settled(routed(ALICE, BOB, 'e1')),
      bob: settled(own(BOB)), // the whole position routing to Alice, as the chain settles it
      carol: settled(own(CAROL)),
      danFromCarol: settled(routed(DAN, CAROL, 'e2')),
      danKind1: settled(own(DAN, DENOM, 1)),
    }).toEqual({ alice: true, aliceFromBob: true, bob: true, carol: false, danFromCarol: false, danKind1: false });
    expect([own(ALICE)?.accrued, routed(ALICE, BOB, 'e1')?.accrued]).toEqual([3n, 3n]);
  });

  it("rounds each holder's share down: 1000 over a supply of 3 pays 333 and 666, one unit stays behind", async () => {
    const { newIndex } = distribute({ index: 0n, carryScaled: 0n, supply: 3n, amount: 1000n });
    w.seedKind({ holderCount: 2, supply: 3n, accrualDenoms: [DENOM] });
    w.seedAccrual(newIndex);
    w.seedHolding(ALICE, 1n);
    w.seedHolding(BOB, 2n);
    w.seedEntry(ALICE, { units: 1n, snapshotIndex: 0n });
    w.seedEntry(BOB, { units: 2n, snapshotIndex: 0n });
    await w.block(async (ctx) => {
      await settleForCollect(ctx, await kindOf(), ALICE);
      await settleForCollect(ctx, await kindOf(), BOB);
    });
    expect([own(ALICE)?.accrued, own(BOB)?.accrued]).toEqual([333n, 666n]);
  });
});

describe('startRouting / stopRouting', () => {
  /** Alice holds 10 (own entry since index 0); the index is at 2; her pledge e1 of 4 to Bob is created. */
  async function pledge(units = 4n, id = 'e1'): Promise<void> {
    await w.block(async (ctx) => {
      const enc = await encOf(id);
      await addLock(ctx, ASSET, 0, ALICE, `encumbrance/${id}`, units); // as the handler does: the lock first
      await startRouting(ctx, await kindOf(), enc);
    });
  }
  beforeEach(() => {
    w.seedKind({ holderCount: 1, supply: 10n, accrualDenoms: [DENOM] });
    w.seedAccrual(2n * S);
    w.seedHolding(ALICE, 10n);
    w.seedEntry(ALICE, { units: 10n, snapshotIndex: 0n });
    w.seedEncumbrance('e1', ALICE, BOB, 4n);
    w.seedEncumbrance('e2', ALICE, CAROL, 3n);
  });

  it("settles the holder first, then moves the pledged units' earning to the beneficiary from now on", async () => {
    await pledge();
    expect(w.store.row('Holding', holdingKey(ASSET, 0, ALICE))).toMatchObject({
      units: 10n,
      routedOut: 4n,
      locked: 4n,
    });
    expect(earning(own(ALICE))).toEqual({ units: 6n, accrued: 20n, snapshotIndex: 2n * S });
    // a new route earns nothing from before it started
    expect(earning(routed(BOB, ALICE, 'e1'))).toEqual({ units: 4n, accrued: 0n, snapshotIndex: 2n * S });

    await w.block(async (ctx) => {
      await setIndex(ctx, 5n * S);
      await settleForCollect(ctx, await kindOf(), BOB);
    });
    expect(earning(routed(BOB, ALICE, 'e1'))).toEqual({ units: 4n, accrued: 12n, snapshotIndex: 5n * S });
    expect(earning(own(ALICE))).toEqual({ units: 6n, accrued: 38n, snapshotIndex: 5n * S });
  });

  it("a second route settles the position's first route too (every segment at once)", async () => {
    await pledge();
    await w.block(async (ctx) => setIndex(ctx, 3n * S));
    await pledge(3n, 'e2');
    expect(earning(routed(BOB, ALICE, 'e1'))).toEqual({ units: 4n, accrued: 4n, snapshotIndex: 3n * S });
    expect(earning(routed(CAROL, ALICE, 'e2'))).toEqual({ units: 3n, accrued: 0n, snapshotIndex: 3n * S });
    expect(earning(own(ALICE))).toEqual({ units: 3n, accrued: 26n, snapshotIndex: 3n * S });
    expect(w.store.row('Holding', holdingKey(ASSET, 0, ALICE))?.routedOut).toBe(7n);
  });

  it('stopping settles the route and the rest of the position, then returns the units to the holder', async () => {
    await pledge();
    await pledge(3n, 'e2');
    await w.block(async (ctx) => {
      await setIndex(ctx, 4n * S);
      await removeLock(ctx, ASSET, 0, ALICE, 'encumbrance/e1'); // as the handler does: the lock first
      await stopRouting(ctx, await kindOf(), await encOf('e1'));
    });
    expect(earning(routed(BOB, ALICE, 'e1'))).toEqual({ units: 0n, accrued: 8n, snapshotIndex: 4n * S });
    expect(earning(routed(CAROL, ALICE, 'e2'))).toEqual({ units: 3n, accrued: 6n, snapshotIndex: 4n * S });
    expect(earning(own(ALICE))).toEqual({ units: 7n, accrued: 26n, snapshotIndex: 4n * S });
    expect(w.store.row('Holding', holdingKey(ASSET, 0, ALICE))).toMatchObject({ routedOut: 3n, locked: 3n });
    expect(w.drifts()).toEqual([]);
  });
});

describe('routing before any distribution', () => {
  it('keeps routed_out without entries, so the first distribution opens the holder and the route at their split', async () => {
    w.seedKind({ holderCount: 1, supply: 10n });
    w.seedHolding(ALICE, 10n);
    w.seedEncumbrance('e1', ALICE, BOB, 4n);
    await w.block(async (ctx) => {
      await addLock(ctx, ASSET, 0, ALICE, 'encumbrance/e1', 4n);
      await startRouting(ctx, await kindOf(), await encOf('e1'));
    });
    expect(w.store.row('Holding', holdingKey(ASSET, 0, ALICE))?.routedOut).toBe(4n);
    expect(w.store.all('Claimable')).toEqual([]);

    await w.block(async (ctx) => openAccrual(ctx, await kindOf(), DENOM));
    expect(earning(own(ALICE))).toEqual({ units: 6n, accrued: 0n, snapshotIndex: 0n });
    expect(earning(routed(BOB, ALICE, 'e1'))).toEqual({ units: 4n, accrued: 0n, snapshotIndex: 0n });
  });
});

describe('openAccrual', () => {
  it('registers the denom and opens entries (snapshot 0) for every position and income route earning now', async () => {
    w.seedKind({ holderCount: 4, accrualDenoms: ['uatom'] });
    w.seedKind({ kindId: 1, holderCount: 1 });
    w.seedHolding(ALICE, 10n);
    w.seedHolding(BOB, 5n, { routedOut: 5n, locks: [{ ref: 'encumbrance/e1', units: '5' }] }); // all routed out
    w.seedHolding(CAROL, 0n);
    w.seedHolding(DAN, 3n, { routedOut: 1n, locks: [{ ref: 'encumbrance/e2', units: '1' }] });
    w.seedHolding(DAN, 7n, { kindId: 1 });
    w.seedEncumbrance('e1', BOB, CAROL, 5n);
    w.seedEncumbrance('e2', DAN, ALICE, 1n);
    w.seedEncumbrance('e3', DAN, ALICE, 1n, { status: 'released' });
    w.seedEncumbrance('e4', DAN, ALICE, 1n, { kind: 'lien', incomeToBeneficiary: false });
    w.seedEncumbrance('e5', DAN, CAROL, 1n, { kindId: 1 });
    const accrual = await w.block(async (ctx) => openAccrual(ctx, await kindOf(), DENOM));
    expect(accrual).toMatchObject({ id: `${ASSET}-0-${DENOM}`, index: 0n, moduleHeld: 0n, totalPaid: 0n });
    expect(w.store.row('Accrual', accrual.id)).toMatchObject({ index: 0n, carryScaled: 0n, updatedHeight: w.height });
    expect(w.store.row('Kind', `${ASSET}-0`)?.accrualDenoms).toEqual(['uatom', DENOM]);
    expect(
      w.store
        .all('Claimable')
        .map((c) => `${c.account}|${c.routedFrom}|${c.ref}|${c.kindId}|${c.units}|${c.snapshotIndex}`)
        .sort(),
    ).toEqual(
      [
        `${ALICE}|||0|10|0`,
        `${DAN}|||0|2|0`,
        `${CAROL}|${BOB}|encumbrance/e1|0|5|0`,
        `${ALICE}|${DAN}|encumbrance/e2|0|1|0`,
      ].sort(),
    );
  });
});

describe('payOut / recordPaid / checkAccrualAfter', () => {
  beforeEach(() => {
    w.seedAccrual(3n * S, { moduleHeld: 100n, totalPaid: 10n });
    w.seedEntry(ALICE, { units: 10n, snapshotIndex: S, accrued: 5n });
  });

  it('settles the entry, pays the amount out of accrued and returns what was accrued before paying', async () => {
    const before = await w.block(async (ctx) => payOut(ctx, ownEntry(ASSET, 0, DENOM, ALICE), await accrualOf(), 25n));
    expect(before).toBe(25n);
    expect(earning(own(ALICE))).toEqual({ units: 10n, accrued: 0n, snapshotIndex: 3n * S });
  });

  it('an overpayment is not clamped: accrued goes negative, and the returned amount lets the handler record the drift', async () => {
    const before = await w.block(async (ctx) => payOut(ctx, ownEntry(ASSET, 0, DENOM, ALICE), await accrualOf(), 30n));
    expect([before, own(ALICE)?.accrued]).toEqual([25n, -5n]);
  });

  it('counts the payment out of the module; the post-values disagree only where they differ', async () => {
    await w.block(async (ctx) => {
      const accrual = await accrualOf();
      recordPaid(ctx, accrual, 25n);
      await checkAccrualAfter(ctx, accrual, '75', '35');
      await checkAccrualAfter(ctx, accrual, undefined, undefined);
      await checkAccrualAfter(ctx, accrual, '76', '35');
    });
    expect(w.store.row('Accrual', `${ASSET}-0-${DENOM}`)).toMatchObject({ moduleHeld: 75n, totalPaid: 35n });
    expect(w.drifts()).toEqual(['Accrual module_held: chain 76, derived 75']);
  });
});

describe('isIncomeRoute', () => {
  it('is an active pledge with income to the beneficiary, nothing else', () => {
    const enc = (over: Partial<Encumbrance>) =>
      ({ kind: 'pledge', incomeToBeneficiary: true, status: 'active', ...over }) as Encumbrance;
    expect([
      isIncomeRoute(enc({})),
      isIncomeRoute(enc({ incomeToBeneficiary: false })),
      isIncomeRoute(enc({ kind: 'lien' })),
      isIncomeRoute(enc({ kind: 'lockup' })),
      isIncomeRoute(enc({ status: 'released' })),
      isIncomeRoute(enc({ status: 'exercised' })),
    ]).toEqual([true, false, false, false, false, false]);
  });
});
