/**
 * Launch: metadata document → meta_hash (SHA-256 of canonical JSON) →
 * MsgCreateAsset with the template's kinds → MsgIssue to the first holders →
 * MsgLockIssuance → (community) one more MsgIssue that fails with asset/5.
 *
 * Templates (docs/app-services.md, launchpad templates): community = one ECONOMIC kind, fixed
 * supply; dividend = ECONOMIC + INCOME; equity = ECONOMIC, INCOME, VOTE;
 * bond = a REDEMPTION kind and one INCOME kind per coupon date.
 */
import type { Actor, Cast, RoleName } from '../accounts';
import { metadataHash } from '../canonical-json';
import type { Handle, LaunchedAsset, Template } from '../context';
import { script, type Flow } from '../flow';
import * as msg from '../messages';
import type { AssetSpec, KindSpec, PolicySpec } from '../messages';
import { expectOk, WHOLE } from './util';

const DAY = 86_400_000;
const KYC = 'kyc';

interface LaunchPlan {
  key: string;
  template: Template;
  name: string;
  symbol: string;
  issuer: RoleName;
  policy(cast: Cast): PolicySpec;
  roles(cast: Cast): AssetSpec['roles'];
  kinds(nowMs: number): KindSpec[];
  liensAllowed: boolean;
  recipients(cast: Cast): string[];
  /** recipients issued a set amount of whole units (the others get a seeded 500 to 5,000) */
  fixedUnits?(cast: Cast): Map<string, bigint>;
  lock: boolean;
  /** one more MsgIssue after the lock, which the chain refuses (asset/5) */
  issueAfterLock: boolean;
  background: boolean;
}

const kind = (cls: KindSpec['class'], extra: Partial<KindSpec> = {}): KindSpec => ({
  class: cls,
  decimals: 6,
  bundle: true,
  transferable: true,
  ...extra,
});
const OPEN: PolicySpec = { transfer: 'TRANSFER_MODE_OPEN' };
const holders = (cast: Cast, n = cast.holders.length) => cast.holders.slice(0, n).map((h) => h.address);

/**
 * Whole units the issuer of a pooled asset is issued (half at most goes into its pool,
 * flows/dex.ts) and the visitor account holds: enough for a pool of POOL_QUOTE at any of its
 * prices, and for a visitor to borrow the lender's largest principal against it.
 */
export const POOLED_ISSUER_UNITS = 500_000n;
export const VISITOR_UNITS = 10_000n;
const pooled = (issuer: RoleName) => (c: Cast) =>
  new Map([
    [c.roles[issuer].address, POOLED_ISSUER_UNITS],
    [c.roles.visitor.address, VISITOR_UNITS],
  ]);

function couponTerm(nowMs: number, n: number) {
  const iso = (ms: number) => msg.rfc3339(ms);
  return { start: iso(nowMs + (n - 1) * 7 * DAY), end: iso(nowMs + n * 7 * DAY), label: `coupon ${n}` };
}

/** The assets every scenario launches; `kyc` and `liquidation` are second assets of their issuers (nonce 1). */
export const LAUNCH_PLANS: LaunchPlan[] = [
  {
    key: 'community',
    template: 'community',
    name: 'Harbour Commons',
    symbol: 'HBC',
    issuer: 'issuer-community',
    policy: () => OPEN,
    roles: () => ({}),
    kinds: () => [kind('KIND_CLASS_ECONOMIC')],
    liensAllowed: false,
    recipients: (c) => [
      ...holders(c),
      c.roles['issuer-community'].address,
      c.roles.desk.address,
      c.roles.visitor.address,
    ],
    fixedUnits: pooled('issuer-community'),
    lock: true,
    issueAfterLock: true,
    background: true,
  },
  {
    key: 'dividend',
    template: 'dividend',
    name: 'Quay Street Rent Pool',
    symbol: 'QSR',
    issuer: 'issuer-dividend',
    policy: () => OPEN,
    roles: (c) => ({ operator: c.roles.operator.address }),
    kinds: () => [kind('KIND_CLASS_ECONOMIC'), kind('KIND_CLASS_INCOME')],
    liensAllowed: true,
    recipients: (c) => [...holders(c), c.roles['issuer-dividend'].address],
    lock: true,
    issueAfterLock: false,
    background: true,
  },
  {
    key: 'equity',
    template: 'equity',
    name: 'Lantern Works',
    symbol: 'LNW',
    issuer: 'issuer-equity',
    policy: () => OPEN,
    roles: (c) => ({ operator: c.roles.operator.address, releaser: c.roles.releaser.address }),
    kinds: () => [kind('KIND_CLASS_ECONOMIC'), kind('KIND_CLASS_INCOME'), kind('KIND_CLASS_VOTE')],
    liensAllowed: false,
    recipients: (c) => [
      ...holders(c),
      c.roles['issuer-equity'].address,
      c.roles.desk.address,
      c.evm[0].address,
      c.roles.visitor.address,
    ],
    fixedUnits: pooled('issuer-equity'),
    lock: true,
    issueAfterLock: false,
    background: true,
  },
  {
    key: 'bond',
    template: 'bond',
    name: 'Tidewater Note 2027',
    symbol: 'TWN27',
    issuer: 'issuer-bond',
    policy: () => OPEN,
    roles: () => ({}),
    kinds: (now) => [
      kind('KIND_CLASS_REDEMPTION'),
      kind('KIND_CLASS_INCOME', { term: couponTerm(now, 1) }),
      kind('KIND_CLASS_INCOME', { term: couponTerm(now, 2) }),
    ],
    liensAllowed: false,
    recipients: (c) => holders(c, Math.max(4, Math.ceil(c.holders.length / 2))),
    lock: false,
    issueAfterLock: false,
    background: true,
  },
  {
    key: 'kyc',
    template: 'community',
    name: 'Verified Members Club',
    symbol: 'VMC',
    issuer: 'issuer-community',
    policy: (c) => ({ transfer: 'TRANSFER_MODE_ATTESTED', attestation_type: KYC, attester: c.roles.attester.address }),
    roles: () => ({}),
    kinds: () => [kind('KIND_CLASS_ECONOMIC')],
    liensAllowed: false,
    recipients: (c) => [...holders(c, Math.max(3, Math.ceil(c.holders.length / 2))), c.evm[0].address],
    lock: true,
    issueAfterLock: false,
    background: true,
  },
  {
    key: 'liquidation',
    template: 'dividend',
    name: 'Old Mill Wind-down',
    symbol: 'OMW',
    issuer: 'issuer-dividend',
    policy: () => OPEN,
    roles: (c) => ({ operator: c.roles.operator.address }),
    kinds: () => [kind('KIND_CLASS_ECONOMIC'), kind('KIND_CLASS_INCOME')],
    liensAllowed: false,
    recipients: (c) => holders(c, Math.min(4, c.holders.length)),
    lock: false,
    issueAfterLock: false,
    // liquidated later: every unit must stay with a cast holder that can redeem it
    background: false,
  },
];

export const KYC_ATTESTATION_TYPE = KYC;

/** The metadata document of a launch (what the launchpad would store) and its hash. */
export function metadataDocument(plan: Pick<LaunchPlan, 'name' | 'symbol' | 'template'>): {
  doc: Record<string, string>;
  hash: string;
} {
  const doc = {
    name: plan.name,
    symbol: plan.symbol,
    template: plan.template,
    description: `${plan.name}: a ${plan.template} asset of the svc devnet scenario. Testnet only; it has no value.`,
  };
  return { doc, hash: metadataHash(doc) };
}

interface LaunchState {
  issuer?: Actor;
  create?: Handle;
  issue?: Handle;
  lock?: Handle;
  asset?: LaunchedAsset;
}

export function launchFlow(plan: LaunchPlan): Flow {
  return script<LaunchState>(`launch:${plan.key}`, {}, [
    async (ctx, s) => {
      s.issuer = ctx.cast.roles[plan.issuer];
      const { hash } = metadataDocument(plan);
      const spec: AssetSpec = {
        meta_hash: hash,
        settlement_denom: ctx.config.stableDenom,
        policy: plan.policy(ctx.cast),
        roles: plan.roles(ctx.cast),
        kinds: plan.kinds(ctx.now),
        liens_allowed: plan.liensAllowed,
        distribution_denoms: [ctx.config.stableDenom],
      };
      s.create = await ctx.submit(s.issuer, [msg.createAsset(s.issuer.address, spec)]);
    },
    async (ctx, s) => {
      const created = expectOk(ctx, s.create!, `MsgCreateAsset ${plan.key}`);
      const assetId = String(created.responses[0].asset_id);
      const { doc, hash } = metadataDocument(plan);
      const kindCount = plan.kinds(ctx.now).length;
      s.asset = {
        key: plan.key,
        template: plan.template,
        symbol: plan.symbol,
        assetId,
        issuer: s.issuer!,
        metaHash: hash,
        doc,
        kindCount,
        policy: plan.policy(ctx.cast),
        issued: false,
        background: plan.background,
      };
      ctx.world.assets.set(plan.key, s.asset);
      const fixed = plan.fixedUnits?.(ctx.cast) ?? new Map<string, bigint>();
      const issues = plan.recipients(ctx.cast).flatMap((recipient) => {
        const drawn = BigInt(ctx.rng.int(500, 5000));
        const units = (fixed.get(recipient) ?? drawn) * WHOLE;
        return Array.from({ length: kindCount }, (_, k) => msg.issue(s.issuer!.address, assetId, k, recipient, units));
      });
      s.issue = await ctx.submit(s.issuer!, issues);
    },
    async (ctx, s) => {
      expectOk(ctx, s.issue!, `MsgIssue ${plan.key}`);
      s.asset!.issued = true;
      if (!plan.lock) return 'stop';
      s.lock = await ctx.submit(s.issuer!, [msg.lockIssuance(s.issuer!.address, s.asset!.assetId)]);
    },
    async (ctx, s) => {
      expectOk(ctx, s.lock!, `MsgLockIssuance ${plan.key}`);
      if (!plan.issueAfterLock) return 'stop';
      // refused for ever once locked: a failed tx in codespace asset
      await ctx.submit(s.issuer!, [
        msg.issue(s.issuer!.address, s.asset!.assetId, 0, ctx.cast.holders[0].address, WHOLE),
      ]);
    },
  ]);
}

export function launchFlows(): Flow[] {
  return LAUNCH_PLANS.map(launchFlow);
}
