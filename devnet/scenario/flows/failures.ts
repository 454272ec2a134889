/**
 * Deliberately failing txs, committed with a non-zero code in several
 * codespaces (the API shows them with codespace and raw_log): a bank send
 * beyond the balance (sdk/5), a transfer beyond the transferable units
 * (rights/2), an accept of a settlement that is not pending or does not exist
 * (settlement/3 or /2), a claim with nothing to claim (payout/2), an issue
 * after the lock (asset/5). Bridge and encumbrance failures live in their flows.
 */
import type { Actor } from '../accounts';
import type { Ctx, Handle } from '../context';
import { script, type Flow } from '../flow';
import * as msg from '../messages';

export type Failure =
  'insufficient-funds' | 'over-transfer' | 'settlement-not-pending' | 'nothing-to-claim' | 'issue-after-lock';
export const FAILURES: Failure[] = [
  'insufficient-funds',
  'over-transfer',
  'settlement-not-pending',
  'nothing-to-claim',
  'issue-after-lock',
];

/** More than the whole genesis supply of any denom. */
const BEYOND_ANY_BALANCE = 10n ** 18n;

/** An id of a settlement that is no longer pending, or one that does not exist. */
function closedSettlementId(ctx: Ctx): number {
  for (let id = 1; id <= 50; id++) {
    const s = ctx.view.settlement(id);
    if (!s) break;
    if (s.status !== 'STATUS_PENDING') return id;
  }
  return 1_000_000_000;
}

/** Submits one failing tx of the given kind; null when its asset is not launched yet. */
export async function submitFailure(ctx: Ctx, kind: Failure, actor: Actor): Promise<Handle | null> {
  const community = ctx.issuedAsset('community');
  switch (kind) {
    case 'insufficient-funds': {
      // beyond the balance even if the account receives coins earlier in the same block
      const amount = ctx.view.balance(actor.address, ctx.config.stableDenom) + BEYOND_ANY_BALANCE;
      return ctx.submit(actor, [
        msg.bankSend(actor.address, ctx.cast.roles.desk.address, [msg.coin(ctx.config.stableDenom, amount)]),
      ]);
    }
    case 'over-transfer': {
      if (!community) return null;
      // more than the kind's whole supply: fails whatever the block moves first
      const units = ctx.view.supply(community.assetId, 0) + 1n;
      return ctx.submit(actor, [msg.transfer(actor.address, ctx.cast.roles.desk.address, community.assetId, 0, units)]);
    }
    case 'settlement-not-pending':
      return ctx.submit(actor, [msg.accept(actor.address, closedSettlementId(ctx))]);
    case 'nothing-to-claim':
      // no distribution ever goes to the community asset
      if (!community) return null;
      return ctx.submit(actor, [msg.claim(actor.address, community.assetId, 0, ctx.config.stableDenom)]);
    case 'issue-after-lock': {
      if (!community || !ctx.assetView(community.assetId)?.issuance_locked) return null;
      return ctx.submit(community.issuer, [
        msg.issue(community.issuer.address, community.assetId, 0, actor.address, 1n),
      ]);
    }
  }
}

/** Each failure once, one per block, once the community asset is launched. */
export function failuresFlow(): Flow {
  return script(
    'failures',
    {},
    FAILURES.map((kind) => async (ctx: Ctx) => {
      if (!ctx.issuedAsset('community')) return 'wait';
      const actor = ctx.rng.pick(ctx.cast.holders);
      return (await submitFailure(ctx, kind, actor)) ? undefined : 'wait';
    }),
  );
}
