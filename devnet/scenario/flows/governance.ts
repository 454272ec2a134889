/**
 * Attestations, term delegations and issuer administration:
 *  - the attester gives kyc attestations (the ATTESTED asset's recipients
 *    need them), one that lapses by time, one revoked; renewals later;
 *  - delegations of the equity VOTE kind: revoked by the holder, returned by
 *    the delegate, expired by the end-of-block sweep, or left active;
 *  - a split, a kind policy override (RESTRICTED, a denied transfer naming
 *    the rule path, then cleared), and the bridgeable flag of the dividend
 *    INCOME kind (chains from 0.12.0 on).
 */
import type { Actor } from '../accounts';
import type { Ctx, Handle } from '../context';
import { Loop, script, type Flow } from '../flow';
import * as msg from '../messages';
import { KYC_ATTESTATION_TYPE } from './launch';
import { expectOk, hash32, responseId, shuffled, somePart } from './util';

const DAY = 86_400_000;
const ATTESTATION_LIFETIME = 365 * DAY;

/** Holders the attester vouches for: all but the last two, who stay unattested (policy denials need someone). */
export function attestedHolders(ctx: Ctx): Actor[] {
  return ctx.cast.holders.slice(0, Math.max(1, ctx.cast.holders.length - 2));
}

function renewals(ctx: Ctx): Actor[] {
  const attester = ctx.cast.roles.attester.address;
  const renewBefore = ctx.now + 30 * DAY + 4 * ctx.config.maxJumpMs;
  return [...attestedHolders(ctx), ctx.cast.roles.desk, ctx.cast.roles.lender].filter((h) => {
    const a = ctx.view.attestation(attester, h.address, KYC_ATTESTATION_TYPE);
    return a !== null && !a.revoked && a.expiryMs < renewBefore;
  });
}

export function attestationLoop(): Flow {
  return new Loop(
    'attestation',
    (ctx, cycle) => {
      const attester = ctx.cast.roles.attester;
      const kyc = (h: Actor, expiry: number) =>
        msg.attest(attester.address, h.address, KYC_ATTESTATION_TYPE, expiry, hash32(ctx));
      if (cycle === 0) {
        const subjects = [...attestedHolders(ctx), ctx.cast.roles.desk, ctx.cast.roles.lender];
        const accredited = ctx.cast.holders
          .slice(0, 2)
          .map((h) => msg.attest(attester.address, h.address, 'accredited', ctx.now + ATTESTATION_LIFETIME));
        return script('attest:initial', {}, [
          async (c) =>
            void (await c.submit(attester, [
              ...subjects.map((h) => kyc(h, c.now + ATTESTATION_LIFETIME)),
              ...accredited,
            ])),
        ]);
      }
      if (cycle === 1) {
        const lapsing = ctx.cast.holders[ctx.cast.holders.length - 1];
        const revoked = ctx.cast.holders[0];
        return script('attest:lapse-and-revoke', {}, [
          // lapses by time: no event, only `live` turns false
          async (c) => void (await c.submit(attester, [kyc(lapsing, c.shortExpiry())])),
          async (c) =>
            void (await c.submit(attester, [msg.revokeAttestation(attester.address, revoked.address, 'accredited')])),
        ]);
      }
      const due = renewals(ctx);
      if (due.length === 0) return null;
      return script('attest:renew', {}, [
        async (c) =>
          void (await c.submit(
            attester,
            due.map((h) => kyc(h, c.now + ATTESTATION_LIFETIME)),
          )),
      ]);
    },
    [5, 40],
  );
}

// ------------------------------------------------------------------ delegation

type DelegationEnding = 'revoke' | 'return' | 'expire' | 'active';
const ENDINGS: DelegationEnding[] = ['revoke', 'return', 'expire', 'active'];
const VOTE_KIND = 2;

interface DelegationState {
  holder: Actor;
  delegate: Actor;
  handle?: Handle;
  id?: number;
  holdUntil?: number;
}

/**
 * VOTE units `holder` may delegate now. Live, a holder keeps at least half of its VOTE units
 * undelegated: a delegation left active runs 30 days past the block, so one in four cycles
 * locked a quarter of what was free, and within a simulated hour nearly every VOTE unit of
 * the holders was locked; a pool swap moves whole bundles (every kind), so the holders could
 * no longer sell the main equity into its pool while they kept buying it, and its price
 * only rose (bench/world-flow.ts). The history keeps the old rule, so its blocks stay as recorded.
 */
function delegable(ctx: Ctx, holder: Actor, assetId: string): bigint {
  const available = ctx.availableUnits(holder.address, assetId, VOTE_KIND);
  if (!ctx.config.live) return available;
  const position = ctx.view.position(assetId, VOTE_KIND, holder.address);
  const room = position.units / 2n - position.locked;
  return room < available ? (room > 0n ? room : 0n) : available;
}

function delegationFlow(ctx: Ctx, ending: DelegationEnding, cycle: number): Flow | null {
  const asset = ctx.issuedAsset('equity');
  if (!asset) return null;
  const [holder, delegate] = shuffled(ctx, ctx.cast.holders);
  const units = somePart(ctx, delegable(ctx, holder, asset.assetId), 4n);
  if (units === 0n) return null;
  ctx.reserveUnits(holder.address, asset.assetId, VOTE_KIND, units);
  const stillActive = (c: Ctx, id: number) => c.view.delegation(id)?.ended === 'END_REASON_UNSPECIFIED';
  return script<DelegationState>(`delegation:${cycle}:${ending}`, { holder, delegate }, [
    async (c, s) => {
      const until = ending === 'expire' ? c.shortExpiry() : c.longExpiry() + 30 * DAY;
      const revocable = ending === 'revoke' || c.rng.chance(0.5);
      const purposes = [c.rng.pick(['agm-2027', 'board-election', 'budget-vote'])];
      s.handle = await c.submit(s.holder, [
        msg.delegate(s.holder.address, s.delegate.address, asset.assetId, VOTE_KIND, units, until, purposes, revocable),
      ]);
    },
    (c, s) => {
      s.id = responseId(expectOk(c, s.handle!, 'MsgDelegate'), 'delegation_id');
      s.holdUntil = c.height + c.rng.int(1, 4);
      if (ending === 'expire' || ending === 'active') return 'stop';
    },
    async (c, s) => {
      if (c.height < s.holdUntil!) return 'wait';
      if (!stillActive(c, s.id!)) return 'stop';
      if (ending === 'revoke') await c.submit(s.holder, [msg.revokeDelegation(s.holder.address, s.id!)]);
      else await c.submit(s.delegate, [msg.returnDelegation(s.delegate.address, s.id!)]);
    },
  ]);
}

export function delegationLoop(): Flow {
  return new Loop(
    'delegation',
    (ctx, cycle) => delegationFlow(ctx, cycle < ENDINGS.length ? ENDINGS[cycle] : ctx.rng.pick(ENDINGS), cycle),
    [1, 6],
  );
}

// ------------------------------------------------------------------ issuer administration

interface AdminState {
  override?: Handle;
  clearAt?: number;
}

/** The bond's second coupon kind: RESTRICTED for a while, a transfer to an outsider denied, then cleared. */
export function policyOverrideFlow(): Flow {
  const KIND = 2;
  return script<AdminState>('admin:policy-override', {}, [
    async (ctx, s) => {
      const bond = ctx.issuedAsset('bond');
      if (!bond) return 'wait';
      const allowlist = ctx.cast.holders.slice(0, 2).map((h) => h.address);
      s.override = await ctx.submit(bond.issuer, [
        msg.setKindPolicy(bond.issuer.address, bond.assetId, KIND, { transfer: 'TRANSFER_MODE_RESTRICTED', allowlist }),
      ]);
    },
    async (ctx, s) => {
      expectOk(ctx, s.override!, 'MsgSetKindPolicy');
      const bond = ctx.issuedAsset('bond')!;
      const outsider = ctx.cast.holders[ctx.cast.holders.length - 1];
      const sender = ctx.cast.holders.find(
        (h) => h !== outsider && ctx.availableUnits(h.address, bond.assetId, KIND) > 0n,
      );
      s.clearAt = ctx.height + ctx.rng.int(3, 10);
      if (!sender) return;
      // denied with the rule path kinds[2].policy_override.transfer: a failed tx in codespace rights
      await ctx.submit(sender, [msg.transfer(sender.address, outsider.address, bond.assetId, KIND, 1n)]);
    },
    async (ctx, s) => {
      if (ctx.height < s.clearAt!) return 'wait';
      const bond = ctx.issuedAsset('bond')!;
      await ctx.submit(bond.issuer, [msg.setKindPolicy(bond.issuer.address, bond.assetId, KIND, null)]);
    },
  ]);
}

export function splitFlow(): Flow {
  return script('admin:split', {}, [
    async (ctx) => {
      const equity = ctx.issuedAsset('equity');
      if (!equity) return 'wait';
      await ctx.submit(equity.issuer, [msg.splitKind(equity.issuer.address, equity.assetId, 0, 2)]);
    },
    async (ctx) => {
      const community = ctx.issuedAsset('community');
      if (!community) return 'wait';
      await ctx.submit(community.issuer, [msg.splitKind(community.issuer.address, community.assetId, 0, 10)]);
    },
  ]);
}

/** Marks the dividend INCOME kind bridgeable (the RIGHT_OUT route needs it); chains before 0.12.0 lack the message. */
export function bridgeableFlow(): Flow {
  return script('admin:bridgeable', {}, [
    async (ctx) => {
      if (ctx.config.oldChain) return 'stop';
      const dividend = ctx.issuedAsset('dividend');
      if (!dividend) return 'wait';
      await ctx.submit(dividend.issuer, [msg.setBridgeable(dividend.issuer.address, dividend.assetId, 1, true)]);
    },
  ]);
}
