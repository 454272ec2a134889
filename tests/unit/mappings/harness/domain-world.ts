/**
 * The mappings' domain rules (src/mappings/domain) called directly, without a block or a
 * handler, on the fake store (fake-store.ts): rows seeded as earlier blocks wrote them, an
 * event context at a chosen position, and each block ended as the block handler ends it
 * (`flushDirty`: one write per entity type), so a test reads back exactly what a block writes.
 */
import { toBech32 } from '../../../../src/lib/address';
import { accrualKey, claimableKey } from '../../../../src/mappings/entities/accruals';
import { holdingKey, kindKey, type LockJson } from '../../../../src/mappings/entities/holdings';
import { enterBlock, flushDirty } from '../../../../src/mappings/infra/block-cache';
import type { EventCtx } from '../../../../src/mappings/infra/context';
import { seqOf } from '../../../../src/mappings/infra/values';
import type { AccrualProps } from '../../../../src/types/models/Accrual';
import type { ClaimableProps } from '../../../../src/types/models/Claimable';
import type { EncumbranceProps } from '../../../../src/types/models/Encumbrance';
import type { HoldingProps } from '../../../../src/types/models/Holding';
import type { KindProps } from '../../../../src/types/models/Kind';
import { FakeStore, installFakeStore } from './fake-store';

export const ASSET = 'ab'.repeat(32);
export const DENOM = 'uusdc';
export const account = (byte: number): string => toBech32(new Uint8Array(20).fill(byte));
export const ALICE = account(0x22);
export const BOB = account(0x44);
export const CAROL = account(0x66);

/** The context of an event at (height, txIndex, eventIndex); txIndex -1: a block-level event (`mode` BeginBlock or EndBlock). */
export function eventAt(height: number, txIndex = 0, eventIndex = 0, mode?: string): EventCtx<unknown> {
  const blockTime = new Date(Date.UTC(2026, 0, 1) + height * 1000);
  return {
    height,
    txIndex,
    eventIndex,
    txHash: txIndex < 0 ? null : `TX${height}_${txIndex}`,
    tx: null,
    blockTime,
    blockTimeNs: BigInt(blockTime.getTime()) * 1_000_000n,
    mode,
    type: 'svc.test.v1.EventTest',
    decoded: {},
    seq: seqOf(height, txIndex, eventIndex),
    assets: new Set(),
    accounts: new Set(),
    driftCount: 0,
  };
}

/**
 * A world on a fresh fake store. Heights start far from the last world's: the block cache
 * is kept from one height to the next, so a test must not step from another test's height.
 */
let base = 0;
export function newWorld(): World {
  base += 1_000;
  return new World(installFakeStore(), base);
}

export class World {
  constructor(
    readonly store: FakeStore,
    public height: number,
  ) {}

  /** Runs `body` as one block at the next height and writes it; returns what `body` returned. */
  async block<T>(body: (ctx: EventCtx<unknown>) => Promise<T> | T): Promise<T> {
    this.height += 1;
    enterBlock(this.height);
    const out = await body(eventAt(this.height));
    await flushDirty();
    return out;
  }

  /** Entity names and ids the writes so far touched, in write order (and then forgets them). */
  takeWrites(): string[] {
    const out = this.store.writes.flatMap((w) => w.ids.map((id) => `${w.entity} ${id}`));
    this.store.writes.length = 0;
    return out;
  }

  drifts(): string[] {
    return this.store
      .all('Drift')
      .map((d) => `${d.entity} ${d.field}: chain ${d.chainValue}, derived ${d.derivedValue}`);
  }

  /** A Kind row as an earlier block stored it (supply 0, no holder, no accrual unless given). */
  seedKind(over: Partial<KindProps> = {}): KindProps {
    const kindId = over.kindId ?? 0;
    const row: KindProps = {
      id: kindKey(ASSET, kindId),
      assetId: ASSET,
      kindId,
      kindClass: 'income',
      decimals: 6,
      bundle: true,
      transferable: true,
      bridgeable: false,
      multiplier: 1n,
      supply: 0n,
      holderCount: 0,
      svc20Address: '',
      accrualDenoms: [],
      updatedHeight: 1,
      ...over,
    };
    this.seed('Kind', row);
    return row;
  }

  /** A Holding row; `locks` as Holding.locks stores them (locked defaults to their sum). */
  seedHolding(
    holder: string,
    units: bigint,
    over: Partial<Omit<HoldingProps, 'locks'>> & { locks?: LockJson[] } = {},
  ): HoldingProps {
    const kindId = over.kindId ?? 0;
    const { locks = [], ...rest } = over;
    const row: HoldingProps = {
      id: holdingKey(ASSET, kindId, holder),
      kindRef: kindKey(ASSET, kindId),
      assetId: ASSET,
      kindId,
      holder,
      units,
      locked: locks.reduce((sum, l) => sum + BigInt(l.units), 0n),
      routedOut: 0n,
      updatedHeight: 1,
      ...rest,
      locks: locks as unknown as HoldingProps['locks'],
    };
    this.seed('Holding', row);
    return row;
  }

  seedAccrual(index: bigint, over: Partial<AccrualProps> = {}): AccrualProps {
    const kindId = over.kindId ?? 0;
    const denom = over.denom ?? DENOM;
    const row: AccrualProps = {
      id: accrualKey(ASSET, kindId, denom),
      assetId: ASSET,
      kindId,
      denom,
      index,
      carryScaled: 0n,
      totalDistributed: 0n,
      totalPaid: 0n,
      distributionsCount: 1,
      moduleHeld: 0n,
      updatedHeight: 1,
      ...over,
    };
    this.seed('Accrual', row);
    return row;
  }

  /** A Claimable entry: the holder's own (no `routedFrom`) or a routed one (`routedFrom`, `ref`). */
  seedEntry(
    owner: string,
    fields: Pick<ClaimableProps, 'units' | 'snapshotIndex'> & Partial<ClaimableProps>,
  ): ClaimableProps {
    const kindId = fields.kindId ?? 0;
    const denom = fields.denom ?? DENOM;
    const routedFrom = fields.routedFrom ?? '';
    const ref = fields.ref ?? '';
    const row: ClaimableProps = {
      id: claimableKey(owner, routedFrom, ref, ASSET, kindId, denom),
      account: owner,
      accrualId: accrualKey(ASSET, kindId, denom),
      routedFrom,
      ref,
      assetId: ASSET,
      kindId,
      denom,
      accrued: 0n,
      updatedHeight: 1,
      ...fields,
    };
    this.seed('Claimable', row);
    return row;
  }

  /** An active pledge routing its units' income to `beneficiary` unless `over` says otherwise. */
  seedEncumbrance(
    id: string,
    holder: string,
    beneficiary: string,
    units: bigint,
    over: Partial<EncumbranceProps> = {},
  ): EncumbranceProps {
    const row: EncumbranceProps = {
      id,
      kind: 'pledge',
      assetId: ASSET,
      kindId: 0,
      holder,
      units,
      beneficiary,
      incomeToBeneficiary: true,
      exercisable: false,
      evidenceHash: '',
      status: 'active',
      createdHeight: 1,
      createdTxHash: 'TX1_0',
      createdAt: new Date(Date.UTC(2026, 0, 1)),
      updatedHeight: 1,
      ...over,
    };
    this.seed('Encumbrance', row);
    return row;
  }

  /** Seeds before the first block that reads the row: the block cache keeps what it read (a miss too) across consecutive heights. */
  private seed(entity: string, row: { id: string }): void {
    // straight into the store, as an earlier block's flush would have left it (not a write of the block under test)
    void this.store.set(entity, row.id, row as Record<string, unknown> & { id: string });
    this.store.writes.length = 0;
  }
}

export { accrualKey, claimableKey, holdingKey, kindKey };
