/**
 * Encumbrances beyond loans, one variant per cycle (the first cycles cover
 * every variant once):
 *  - lien by the operator (32-byte evidence hash), released by the operator;
 *  - lockup with an expiry, left to the end-of-block sweep (expired);
 *  - pledge with holder_release_after, released by the holder once allowed;
 *  - pledge the holder may never release: the holder's attempt fails
 *    (encumbrance/4), then the asset's releaser role releases it;
 *  - exercisable pledge exercised by its beneficiary;
 *  - lockup by the issuer, released by the issuer;
 *  - lien left active.
 */
import type { Actor } from '../accounts';
import type { Ctx, Handle, LaunchedAsset } from '../context';
import { Loop, script, type Flow, type Step } from '../flow';
import * as msg from '../messages';
import type { EncumbranceSpec } from '../messages';
import { expectOk, hash32, responseId, shuffled, somePart } from './util';

type Variant =
  | 'lien'
  | 'lockup-expiry'
  | 'pledge-holder-release'
  | 'pledge-releaser'
  | 'pledge-exercise'
  | 'issuer-lockup'
  | 'lien-active';
const VARIANTS: Variant[] = [
  'lien',
  'lockup-expiry',
  'pledge-holder-release',
  'pledge-releaser',
  'pledge-exercise',
  'issuer-lockup',
  'lien-active',
];

interface EncState {
  asset: LaunchedAsset;
  holder: Actor;
  other: Actor;
  create?: Handle;
  id?: number;
  releaseAfter?: number;
  holdUntil?: number;
}

/** The asset each variant encumbers: liens need an asset that allows them. */
const ASSET_OF: Record<Variant, string> = {
  lien: 'dividend',
  'lien-active': 'dividend',
  'lockup-expiry': 'community',
  'issuer-lockup': 'community',
  'pledge-holder-release': 'equity',
  'pledge-releaser': 'equity',
  'pledge-exercise': 'dividend',
};

function spec(ctx: Ctx, v: Variant, s: EncState, units: bigint): EncumbranceSpec {
  const base = { asset_id: s.asset.assetId, kind_id: 0, holder: s.holder.address, units };
  switch (v) {
    case 'lien':
    case 'lien-active':
      return {
        ...base,
        creator: ctx.cast.roles.operator.address,
        kind: 'ENCUMBRANCE_KIND_LIEN',
        beneficiary: s.asset.issuer.address,
        evidence_hash: hash32(ctx),
      };
    case 'lockup-expiry':
      return { ...base, creator: s.holder.address, kind: 'ENCUMBRANCE_KIND_LOCKUP', expiry_ms: ctx.shortExpiry() };
    case 'issuer-lockup':
      return { ...base, creator: s.asset.issuer.address, kind: 'ENCUMBRANCE_KIND_LOCKUP' };
    case 'pledge-holder-release':
      s.releaseAfter = ctx.now + ctx.config.intervalMs;
      return {
        ...base,
        creator: s.holder.address,
        kind: 'ENCUMBRANCE_KIND_PLEDGE',
        beneficiary: s.other.address,
        holder_release_after_ms: s.releaseAfter,
      };
    case 'pledge-releaser':
      return {
        ...base,
        kind_id: 1,
        creator: s.holder.address,
        kind: 'ENCUMBRANCE_KIND_PLEDGE',
        beneficiary: s.other.address,
        income_to_beneficiary: true,
      };
    case 'pledge-exercise':
      return {
        ...base,
        creator: s.holder.address,
        kind: 'ENCUMBRANCE_KIND_PLEDGE',
        beneficiary: s.other.address,
        exercisable: true,
      };
  }
}

/** Who creates the encumbrance (the signer of MsgCreateEncumbrance). */
function creatorOf(ctx: Ctx, v: Variant, s: EncState): Actor {
  if (v === 'lien' || v === 'lien-active') return ctx.cast.roles.operator;
  if (v === 'issuer-lockup') return s.asset.issuer;
  return s.holder;
}

function stillActive(ctx: Ctx, id: number): boolean {
  return ctx.view.encumbrance(id)?.status === 'ENCUMBRANCE_STATUS_ACTIVE';
}

/** The steps after creation, per variant. */
function resolution(v: Variant): Step<EncState>[] {
  const waitFor = (ctx: Ctx, s: EncState) => (ctx.height < s.holdUntil! ? 'wait' : undefined);
  switch (v) {
    case 'lien':
      return [
        waitFor,
        async (ctx, s) =>
          void (
            stillActive(ctx, s.id!) &&
            (await ctx.submit(ctx.cast.roles.operator, [msg.release(ctx.cast.roles.operator.address, s.id!)]))
          ),
      ];
    case 'issuer-lockup':
      return [
        waitFor,
        async (ctx, s) =>
          void (
            stillActive(ctx, s.id!) && (await ctx.submit(s.asset.issuer, [msg.release(s.asset.issuer.address, s.id!)]))
          ),
      ];
    case 'pledge-holder-release':
      return [
        async (ctx, s) => {
          if (ctx.now < s.releaseAfter!) return 'wait';
          if (stillActive(ctx, s.id!)) await ctx.submit(s.holder, [msg.release(s.holder.address, s.id!)]);
        },
      ];
    case 'pledge-releaser':
      return [
        // never allowed for this holder: a failed tx in codespace encumbrance
        async (ctx, s) => void (await ctx.submit(s.holder, [msg.release(s.holder.address, s.id!)])),
        async (ctx, s) =>
          void (
            stillActive(ctx, s.id!) &&
            (await ctx.submit(ctx.cast.roles.releaser, [msg.release(ctx.cast.roles.releaser.address, s.id!)]))
          ),
      ];
    case 'pledge-exercise':
      return [
        waitFor,
        async (ctx, s) => {
          if (stillActive(ctx, s.id!) && ctx.canReceive(s.asset.assetId, 0, s.other.address))
            await ctx.submit(s.other, [msg.exercise(s.other.address, s.id!)]);
        },
      ];
    case 'lockup-expiry':
    case 'lien-active':
      return [];
  }
}

function encumbranceFlow(ctx: Ctx, v: Variant, cycle: number): Flow | null {
  const asset = ctx.issuedAsset(ASSET_OF[v]);
  if (!asset) return null;
  const kindId = v === 'pledge-releaser' ? 1 : 0;
  const [holder, other] = shuffled(ctx, ctx.cast.holders);
  const available = ctx.availableUnits(holder.address, asset.assetId, kindId);
  const units = somePart(ctx, available, 8n);
  if (units === 0n) return null;
  ctx.reserveUnits(holder.address, asset.assetId, kindId, units);
  const state: EncState = { asset, holder, other };
  return script<EncState>(`encumbrance:${cycle}:${v}`, state, [
    async (c, s) => {
      s.create = await c.submit(creatorOf(c, v, s), [msg.createEncumbrance(spec(c, v, s, units))]);
    },
    (c, s) => {
      s.id = responseId(expectOk(c, s.create!, `encumbrance ${v}`), 'encumbrance_id');
      s.holdUntil = c.height + c.rng.int(1, 4);
    },
    ...resolution(v),
  ]);
}

export function encumbranceLoop(): Flow {
  return new Loop(
    'encumbrance',
    (ctx, cycle) => encumbranceFlow(ctx, cycle < VARIANTS.length ? VARIANTS[cycle] : ctx.rng.pick(VARIANTS), cycle),
    [1, 4],
  );
}
