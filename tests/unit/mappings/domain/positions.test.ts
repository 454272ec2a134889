/**
 * src/mappings/domain/positions.ts on the fake store: the rows each rule writes for a given
 * input (Holding, Kind counters, Account, the holder's Claimable entries, Drift), the edges
 * (zero moves, first and last holder, over-withdrawal, an unknown kind, a missing lock) and
 * that income is settled at the old units before any change of them.
 */
import { INDEX_SCALE } from '../../../../src/lib/accrual';
import {
  addLock,
  changeSupply,
  changeUnits,
  checkPositionsAfter,
  moveUnits,
  removeLock,
} from '../../../../src/mappings/domain/positions';
import { getAccrual } from '../../../../src/mappings/entities/accruals';
import { update } from '../../../../src/mappings/entities/entity';
import { getKind } from '../../../../src/mappings/entities/holdings';
import type { PositionAfter } from '../../../../src/mappings/generated/proto-json';
import {
  ALICE,
  ASSET,
  BOB,
  claimableKey,
  DENOM,
  holdingKey,
  kindKey,
  newWorld,
  type World,
} from '../harness/domain-world';

let w: World;
beforeEach(() => {
  w = newWorld();
});

const S = INDEX_SCALE;
const holding = (holder: string) => w.store.row('Holding', holdingKey(ASSET, 0, holder));
const kindRow = () => w.store.row('Kind', kindKey(ASSET, 0));
const ownEntry = (holder: string, denom = DENOM) =>
  w.store.row('Claimable', claimableKey(holder, '', '', ASSET, 0, denom));
const after = (holder: string, units: bigint, locked = 0n): PositionAfter => ({
  asset_id: ASSET,
  kind_id: 0,
  holder,
  units: String(units),
  locked: String(locked),
});

describe('changeUnits / moveUnits: positions and holder counts', () => {
  it('gives a first holder its position, an Account row and a place in the holder count', async () => {
    w.seedKind();
    await w.block((ctx) => changeUnits(ctx, ASSET, 0, ALICE, 10n));
    expect(holding(ALICE)).toMatchObject({ units: 10n, locked: 0n, routedOut: 0n, updatedHeight: w.height });
    expect(kindRow()).toMatchObject({ holderCount: 1, updatedHeight: w.height });
    expect(w.store.row('Account', ALICE)).toMatchObject({ firstHeight: w.height, assetsCreated: 0 });
    expect(w.drifts()).toEqual([]);
  });

  it('writes only the two positions and their versions when a move leaves the holder count as it is (the kind row is not rewritten)', async () => {
    w.seedKind({ holderCount: 2 });
    w.seedHolding(ALICE, 10n);
    w.seedHolding(BOB, 5n);
    await w.block((ctx) => moveUnits(ctx, ASSET, 0, ALICE, BOB, 3n));
    expect(w.takeWrites()).toEqual([
      `Holding ${holdingKey(ASSET, 0, ALICE)}`,
      `Holding ${holdingKey(ASSET, 0, BOB)}`,
      `HoldingVersion ${holdingKey(ASSET, 0, ALICE)}@1`,
      `HoldingVersion ${holdingKey(ASSET, 0, BOB)}@1`,
    ]);
    expect([holding(ALICE)?.units, holding(BOB)?.units]).toEqual([7n, 8n]);
    expect(kindRow()).toMatchObject({ holderCount: 2, updatedHeight: 1 });
  });

  it('counts the last holder out when its units reach zero, and the receiver in', async () => {
    w.seedKind({ holderCount: 1 });
    w.seedHolding(ALICE, 10n);
    await w.block((ctx) => moveUnits(ctx, ASSET, 0, ALICE, BOB, 10n));
    expect([holding(ALICE)?.units, holding(BOB)?.units, kindRow()?.holderCount]).toEqual([0n, 10n, 1]);
    expect(w.store.row('Account', BOB)?.firstHeight).toBe(w.height);
    // Alice's Account row is the business of whoever saw her first, not of her leaving
    expect(w.store.row('Account', ALICE)).toBeUndefined();

    await w.block((ctx) => changeUnits(ctx, ASSET, 0, BOB, -10n));
    expect([holding(BOB)?.units, kindRow()?.holderCount]).toEqual([0n, 0]);
  });

  it('writes nothing for a zero delta or an empty holder (not even a drift for an unknown kind)', async () => {
    await w.block(async (ctx) => {
      await changeUnits(ctx, ASSET, 0, ALICE, 0n);
      await changeUnits(ctx, ASSET, 0, '', 5n);
      await moveUnits(ctx, ASSET, 0, ALICE, BOB, 0n);
    });
    expect(w.takeWrites()).toEqual([]);
  });

  it('a self-move keeps the units and the holder count', async () => {
    w.seedKind({ holderCount: 1 });
    w.seedHolding(ALICE, 10n);
    await w.block((ctx) => moveUnits(ctx, ASSET, 0, ALICE, ALICE, 10n));
    expect([holding(ALICE)?.units, kindRow()?.holderCount]).toEqual([10n, 1]);
  });

  it('an over-withdrawal is not clamped: the position goes negative (the positions_after check reports it) and is counted out once', async () => {
    w.seedKind({ holderCount: 1, accrualDenoms: [DENOM] });
    w.seedAccrual(2n * S);
    w.seedHolding(ALICE, 5n);
    w.seedEntry(ALICE, { units: 5n, snapshotIndex: 2n * S });
    await w.block(async (ctx) => {
      await changeUnits(ctx, ASSET, 0, ALICE, -8n);
      await checkPositionsAfter(ctx, [after(ALICE, 0n)]);
    });
    expect([holding(ALICE)?.units, kindRow()?.holderCount]).toEqual([-3n, 0]);
    expect(w.drifts()).toEqual(['Holding units: chain 0, derived -3']);

    // the index moves while the entry's units are negative: settling earns nothing and does not throw
    await w.block(async (ctx) => {
      const accrual = await getAccrual(ASSET, 0, DENOM);
      update(ctx, accrual!, { index: 3n * S });
      await changeUnits(ctx, ASSET, 0, ALICE, 2n);
    });
    expect([holding(ALICE)?.units, kindRow()?.holderCount]).toEqual([-1n, 0]);
    expect(ownEntry(ALICE)).toMatchObject({ units: -1n, accrued: 0n, snapshotIndex: 3n * S });

    await w.block((ctx) => changeUnits(ctx, ASSET, 0, ALICE, 4n));
    expect([holding(ALICE)?.units, kindRow()?.holderCount]).toEqual([3n, 1]);
  });

  it('an unknown kind is a drift; the position still moves, without holder count, Account or income entry', async () => {
    await w.block((ctx) => changeUnits(ctx, ASSET, 0, ALICE, 4n));
    expect(w.drifts()).toEqual(['Kind exists: chain true, derived false']);
    expect(holding(ALICE)?.units).toBe(4n);
    expect(w.store.all('Kind')).toEqual([]);
    expect(w.store.all('Account')).toEqual([]);
    expect(w.store.all('Claimable')).toEqual([]);
  });
});

describe('changeUnits: income settled at the old units first', () => {
  it("moves the holder's pending income into accrued, snapshots the index, then sets the new earning units", async () => {
    w.seedKind({ holderCount: 1, accrualDenoms: [DENOM] });
    w.seedAccrual(5n * S);
    w.seedHolding(ALICE, 10n);
    w.seedEntry(ALICE, { units: 10n, snapshotIndex: 2n * S, accrued: 7n });
    await w.block((ctx) => changeUnits(ctx, ASSET, 0, ALICE, 5n));
    // 7 + floor(10 * (5 - 2)): at the 10 units held while the index moved, not the 15 held now
    expect(ownEntry(ALICE)).toMatchObject({ units: 15n, accrued: 37n, snapshotIndex: 5n * S, updatedHeight: w.height });
  });

  it('a holder arriving after a distribution earns nothing from it; only from the next one', async () => {
    w.seedKind({ accrualDenoms: [DENOM] });
    w.seedAccrual(5n * S);
    await w.block((ctx) => changeUnits(ctx, ASSET, 0, BOB, 4n));
    expect(ownEntry(BOB)).toMatchObject({ units: 4n, accrued: 0n, snapshotIndex: 5n * S });

    await w.block(async (ctx) => {
      update(ctx, (await getAccrual(ASSET, 0, DENOM))!, { index: 6n * S });
      await changeUnits(ctx, ASSET, 0, BOB, -4n);
    });
    expect(ownEntry(BOB)).toMatchObject({ units: 0n, accrued: 4n, snapshotIndex: 6n * S });
  });

  it('settles every segment of the position: its own units - routed_out, and each active income route', async () => {
    w.seedKind({ holderCount: 1, accrualDenoms: [DENOM] });
    w.seedAccrual(S);
    w.seedHolding(ALICE, 10n, { routedOut: 4n, locks: [{ ref: 'encumbrance/e1', units: '4' }] });
    w.seedEncumbrance('e1', ALICE, BOB, 4n);
    w.seedEntry(ALICE, { units: 6n, snapshotIndex: 0n });
    w.seedEntry(BOB, { units: 4n, snapshotIndex: 0n, routedFrom: ALICE, ref: 'encumbrance/e1' });
    await w.block((ctx) => changeUnits(ctx, ASSET, 0, ALICE, 2n));
    expect(ownEntry(ALICE)).toMatchObject({ units: 8n, accrued: 6n, snapshotIndex: S });
    expect(w.store.row('Claimable', claimableKey(BOB, ALICE, 'encumbrance/e1', ASSET, 0, DENOM))).toMatchObject({
      units: 4n,
      accrued: 4n,
      snapshotIndex: S,
    });
  });

  it('settles every accrual denom of the kind, each at its own index', async () => {
    w.seedKind({ holderCount: 1, accrualDenoms: [DENOM, 'uatom'] });
    w.seedAccrual(3n * S);
    w.seedAccrual(S / 2n, { denom: 'uatom' });
    w.seedHolding(ALICE, 3n);
    w.seedEntry(ALICE, { units: 3n, snapshotIndex: 0n });
    w.seedEntry(ALICE, { units: 3n, snapshotIndex: 0n, denom: 'uatom' });
    await w.block((ctx) => changeUnits(ctx, ASSET, 0, ALICE, -1n));
    expect(ownEntry(ALICE)).toMatchObject({ units: 2n, accrued: 9n });
    // floor(3 * 0.5) = 1: the half unit stays in the module (residue)
    expect(ownEntry(ALICE, 'uatom')).toMatchObject({ units: 2n, accrued: 1n });
  });
});

describe('changeSupply', () => {
  it("adds a (possibly negative) delta to the kind's supply and moves its updated_height", async () => {
    w.seedKind({ supply: 10n });
    await w.block(async (ctx) => changeSupply(ctx, (await getKind(ASSET, 0))!, -4n));
    expect(kindRow()).toMatchObject({ supply: 6n, updatedHeight: w.height });
  });
});

describe('addLock / removeLock', () => {
  it('adds a lock, adds to the lock of the same ref, and keeps locked the sum; units stay', async () => {
    w.seedHolding(ALICE, 10n);
    await w.block(async (ctx) => {
      await addLock(ctx, ASSET, 0, ALICE, 'settlement/s1', 3n);
      await addLock(ctx, ASSET, 0, ALICE, 'encumbrance/e1', 2n);
      await addLock(ctx, ASSET, 0, ALICE, 'settlement/s1', 1n);
    });
    expect(holding(ALICE)).toMatchObject({
      units: 10n,
      locked: 6n,
      locks: [
        { ref: 'settlement/s1', units: '4' },
        { ref: 'encumbrance/e1', units: '2' },
      ],
      updatedHeight: w.height,
    });
  });

  it('removes a lock and returns the units it held', async () => {
    w.seedHolding(ALICE, 10n, {
      locks: [
        { ref: 'settlement/s1', units: '4' },
        { ref: 'encumbrance/e1', units: '2' },
      ],
    });
    const freed = await w.block((ctx) => removeLock(ctx, ASSET, 0, ALICE, 'settlement/s1'));
    expect(freed).toBe(4n);
    expect(holding(ALICE)).toMatchObject({ locked: 2n, locks: [{ ref: 'encumbrance/e1', units: '2' }] });
    expect(w.drifts()).toEqual([]);
  });

  it('a missing lock is a drift, frees nothing and leaves the position unwritten', async () => {
    w.seedHolding(ALICE, 10n, { locks: [{ ref: 'settlement/s1', units: '4' }] });
    const freed = await w.block((ctx) => removeLock(ctx, ASSET, 0, ALICE, 'settlement/s2'));
    expect(freed).toBe(0n);
    expect(w.drifts()).toEqual(['Holding locks[settlement/s2]: chain present, derived absent']);
    expect(w.takeWrites().filter((x) => x.startsWith('Holding'))).toEqual([]);
    expect(w.store.row('ChainTotals', 'chain')?.driftTotal).toBe(1);
  });
});

describe('checkPositionsAfter', () => {
  it('records one drift per field that disagrees, none when they agree or are absent', async () => {
    w.seedHolding(ALICE, 10n, { locks: [{ ref: 'settlement/s1', units: '4' }] });
    await w.block(async (ctx) => {
      await checkPositionsAfter(ctx, undefined);
      await checkPositionsAfter(ctx, [after(ALICE, 10n, 4n), after(BOB, 0n)]); // Bob: no position, zero
      await checkPositionsAfter(ctx, [after(ALICE, 11n, 3n)]);
    });
    expect(w.drifts()).toEqual(['Holding units: chain 11, derived 10', 'Holding locked: chain 3, derived 4']);
    expect(w.store.row('Holding', holdingKey(ASSET, 0, BOB))).toBeUndefined();
  });
});
