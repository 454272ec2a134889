/**
 * svc.payout.v1: distributions move the accrual index (src/lib/accrual.ts);
 * claims pay accrued income out of Claimable entries.
 */
import { distribute } from '../../lib/accrual';
import type { EventClaimed, EventDistributed } from '../generated/proto-json';
import type { HandlerTable } from '../infra/dispatch';
import { EventCtx, subjectAccount, subjectAsset } from '../infra/context';
import { expectEqual, recordDrift } from '../entities/drift';
import { update } from '../entities/entity';
import { checkAccrualAfter, openAccrual, payOut, recordPaid, settleForCollect } from '../domain/income';
import { claimableKey, getAccrual } from '../entities/accruals';
import { createDistribution } from '../entities/payout';
import { getKind, requireKind } from '../entities/holdings';
import { big, int, str } from '../infra/values';

export async function handlePayoutDistributed(ctx: EventCtx<EventDistributed>): Promise<void> {
  const e = ctx.decoded;
  const kindId = int(e.kind_id);
  const amount = big(e.amount);
  const kind = await requireKind(ctx, e.asset_id, kindId);
  if (kind) {
    const accrual = (await getAccrual(e.asset_id, kindId, e.denom)) ?? (await openAccrual(ctx, kind, e.denom));
    await expectEqual(ctx, 'Kind', kind.id, 'supply', e.supply, kind.supply);
    let { index, carryScaled } = accrual;
    if (kind.supply > 0n && amount > 0n) {
      const next = distribute({ index, carryScaled, supply: kind.supply, amount });
      index = next.newIndex;
      carryScaled = next.carryScaled;
    } else {
      await recordDrift(ctx, 'Accrual', accrual.id, 'distributable', 'supply > 0', kind.supply);
    }
    await expectEqual(ctx, 'Accrual', accrual.id, 'index', e.new_index, index);
    await expectEqual(ctx, 'Accrual', accrual.id, 'carry_scaled', e.carry_scaled, carryScaled);
    update(ctx, accrual, {
      index,
      carryScaled,
      totalDistributed: accrual.totalDistributed + amount,
      moduleHeld: accrual.moduleHeld + amount,
      distributionsCount: accrual.distributionsCount + 1,
    });
    await expectEqual(ctx, 'Accrual', accrual.id, 'module_held', e.module_held_after, accrual.moduleHeld);
    await expectEqual(
      ctx,
      'Accrual',
      accrual.id,
      'total_distributed',
      e.total_distributed_after,
      accrual.totalDistributed,
    );
  }
  createDistribution(ctx, e);
  subjectAsset(ctx, e.asset_id);
  subjectAccount(ctx, e.payer);
}

export async function handlePayoutClaimed(ctx: EventCtx<EventClaimed>): Promise<void> {
  const e = ctx.decoded;
  const kindId = int(e.kind_id);
  const accrual = await getAccrual(e.asset_id, kindId, e.denom);
  if (!accrual) {
    await recordDrift(ctx, 'Accrual', `${e.asset_id}-${kindId}-${e.denom}`, 'exists', true, false);
  } else {
    const kind = await getKind(e.asset_id, kindId);
    if (kind) await settleForCollect(ctx, kind, e.claimer);
    for (const entry of e.entries ?? []) {
      const key = {
        account: e.claimer,
        routedFrom: str(entry.routed_from),
        ref: str(entry.ref),
        assetId: e.asset_id,
        kindId,
        denom: e.denom,
      };
      const accrued = await payOut(ctx, key, accrual, big(entry.amount));
      const id = claimableKey(key.account, key.routedFrom, key.ref, key.assetId, kindId, key.denom);
      await expectEqual(ctx, 'Claimable', id, 'accrued', entry.amount, accrued);
    }
    recordPaid(ctx, accrual, big(e.amount));
    await checkAccrualAfter(ctx, accrual, e.module_held_after, e.total_paid_after);
  }
  subjectAsset(ctx, e.asset_id);
  subjectAccount(ctx, e.claimer, ...(e.entries ?? []).map((x) => x.routed_from));
}

/** payout: typed event type → handler. */
export const payoutHandlers: HandlerTable = {
  events: {
    'svc.payout.v1.EventDistributed': handlePayoutDistributed,
    'svc.payout.v1.EventClaimed': handlePayoutClaimed,
  },
};
