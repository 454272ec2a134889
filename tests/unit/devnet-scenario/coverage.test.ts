/**
 * A small history (120 blocks × 6 txs, 3 h apart, full signature
 * verification) reaches every module and every status (SCENARIO_SEED picks
 * another seed). Everything is asserted from the chain's own block /
 * block_results JSON.
 */
import { createHash } from 'node:crypto';
import { generateHistory, type History } from '../../../devnet/scenario';
import { readChain, revertReason, typedValue, type ChainReading, type SeenEvent } from './chain-results';

const HOUR = 3_600_000;
let history: History;
let chain: ChainReading;

const ofType = (type: string) => chain.events.filter((e) => e.type === type);
const txEvents = (type: string) => ofType(type).filter((e) => e.txIndex >= 0);
const blockEvents = (type: string, mode: string) => ofType(type).filter((e) => e.txIndex === -1 && e.mode === mode);
const reasons = (events: SeenEvent[], key: string) => new Set(events.map((e) => typedValue(e, key)));

beforeAll(async () => {
  history = await generateHistory({
    seed: process.env.SCENARIO_SEED ?? 'coverage',
    blocks: 120,
    txsPerBlock: 6,
    startTimeMs: Date.UTC(2026, 0, 1),
    blockIntervalMs: 3 * HOUR,
  });
  chain = readChain(history.chain);
}, 120_000);

describe('a 120-block scenario history', () => {
  it('has the requested size, spans more than 14 UTC days, and the summary matches the chain', () => {
    expect(history.chain.height).toBe(120);
    const days = new Set<string>();
    for (let h = 1; h <= 120; h++)
      days.add(new Date(Number(history.chain.block(h)!.header.time.seconds) * 1000).toISOString().slice(0, 10));
    expect(days.size).toBeGreaterThanOrEqual(14);
    expect(chain.txs.length).toBeGreaterThanOrEqual(120 * 6);
    expect(history.summary.txs.total).toBe(chain.txs.length);
    expect(history.summary.txs.failed).toBe(chain.txs.filter((t) => t.code !== 0).length);
  });

  it('emits typed events of every svc module', () => {
    const modules = new Set(chain.events.filter((e) => e.type.startsWith('svc.')).map((e) => e.type.split('.')[1]));
    expect([...modules].sort()).toEqual([
      'asset',
      'attestation',
      'bridge',
      'delegation',
      'dex',
      'encumbrance',
      'evm',
      'payout',
      'rights',
      'settlement',
      'waterfall',
    ]);
  });

  it('launches assets with the SHA-256 of the canonical metadata document, locks issuance, and refuses a later issue (asset/5)', () => {
    const created = txEvents('svc.asset.v1.EventAssetCreated');
    expect(created.length).toBeGreaterThanOrEqual(6);
    const community = history.summary.assets.find((a) => a.key === 'community')!;
    const canonical = JSON.stringify(
      Object.fromEntries(Object.entries(community.doc).sort(([a], [b]) => (a < b ? -1 : 1))),
    );
    const expected = createHash('sha256').update(canonical).digest('hex');
    expect(created.find((e) => typedValue(e, 'asset_id') === community.assetId)?.attrs.meta_hash).toBe(
      JSON.stringify(expected),
    );
    expect(txEvents('svc.asset.v1.EventIssuanceLocked').length).toBeGreaterThanOrEqual(3);
    expect(
      chain.txs.some((t) => t.typeUrls[0] === '/svc.asset.v1.MsgIssue' && t.codespace === 'asset' && t.code === 5),
    ).toBe(true);
    expect(txEvents('svc.asset.v1.EventKindSplit').length).toBeGreaterThanOrEqual(1);
    expect(reasons(txEvents('svc.asset.v1.EventKindPolicySet'), 'cleared')).toEqual(new Set([false, true]));
    expect(txEvents('svc.asset.v1.EventKindBridgeableSet').length).toBe(1);
  });

  it('distributes with carry and claims, own and routed income', () => {
    const distributed = txEvents('svc.payout.v1.EventDistributed');
    expect(distributed.length).toBeGreaterThanOrEqual(3);
    expect(distributed.some((e) => typedValue(e, 'carry_scaled') !== '0')).toBe(true);
    const claims = txEvents('svc.payout.v1.EventClaimed');
    expect(claims.length).toBeGreaterThanOrEqual(3);
    const routed = claims
      .flatMap((e) => typedValue(e, 'entries') as { routed_from: string }[])
      .filter((x) => x.routed_from !== '');
    expect(routed.length).toBeGreaterThan(0);
  });

  it('reaches every settlement status, both cancel reasons included', () => {
    expect(txEvents('svc.settlement.v1.EventSettlementProposed').length).toBeGreaterThan(0);
    expect(txEvents('svc.settlement.v1.EventSettlementSettled').length).toBeGreaterThan(0);
    expect(reasons(txEvents('svc.settlement.v1.EventSettlementCancelled'), 'reason')).toEqual(
      new Set(['', 'LIQUIDATION']),
    );
    expect(blockEvents('svc.settlement.v1.EventSettlementExpired', 'EndBlock').length).toBeGreaterThan(0);
    expect(ofType('svc.settlement.v1.EventSettlementExpired').every((e) => e.txIndex === -1)).toBe(true);
  });

  it('runs loans: pledges of every kind, repaid by settlement (accept + releases) and liquidated (exercises)', () => {
    const lender = history.summary.accounts.lender;
    const pledges = txEvents('svc.encumbrance.v1.EventEncumbranceCreated').filter(
      (e) => typedValue(e, 'beneficiary') === lender,
    );
    expect(pledges.length).toBeGreaterThanOrEqual(6);
    expect(
      pledges.every(
        (e) =>
          typedValue(e, 'income_to_beneficiary') === true &&
          typedValue(e, 'exercisable') === true &&
          typedValue(e, 'expiry') === null,
      ),
    ).toBe(true);
    const ok = chain.txs.filter((t) => t.code === 0);
    expect(
      ok.some(
        (t) =>
          t.typeUrls[0] === '/svc.settlement.v1.MsgAccept' &&
          t.typeUrls.length === 4 &&
          t.typeUrls.slice(1).every((u) => u === '/svc.encumbrance.v1.MsgRelease'),
      ),
    ).toBe(true);
    expect(
      ok.some((t) => t.typeUrls.length === 3 && t.typeUrls.every((u) => u === '/svc.encumbrance.v1.MsgExercise')),
    ).toBe(true);
    expect(ok.some((t) => t.typeUrls[0] === '/cosmos.bank.v1beta1.MsgSend')).toBe(true);
  });

  it('reaches every encumbrance status: active, released, exercised, expired by the EndBlock sweep', () => {
    const created = txEvents('svc.encumbrance.v1.EventEncumbranceCreated');
    expect(reasons(created, 'kind')).toEqual(
      new Set(['ENCUMBRANCE_KIND_PLEDGE', 'ENCUMBRANCE_KIND_LIEN', 'ENCUMBRANCE_KIND_LOCKUP']),
    );
    expect(
      created
        .filter((e) => typedValue(e, 'kind') === 'ENCUMBRANCE_KIND_LIEN')
        .every((e) => String(typedValue(e, 'evidence_hash')).length === 64),
    ).toBe(true);
    const releasedBy = reasons(txEvents('svc.encumbrance.v1.EventEncumbranceReleased'), 'actor_role');
    for (const role of [
      'ACTOR_ROLE_HOLDER',
      'ACTOR_ROLE_OPERATOR',
      'ACTOR_ROLE_RELEASER',
      'ACTOR_ROLE_BENEFICIARY',
      'ACTOR_ROLE_ISSUER',
    ])
      expect(releasedBy).toContain(role);
    expect(txEvents('svc.encumbrance.v1.EventEncumbranceExercised').length).toBeGreaterThan(0);
    expect(blockEvents('svc.encumbrance.v1.EventEncumbranceExpired', 'EndBlock').length).toBeGreaterThan(0);
    expect(
      chain.txs.some(
        (t) => t.typeUrls[0] === '/svc.encumbrance.v1.MsgRelease' && t.codespace === 'encumbrance' && t.code === 4,
      ),
    ).toBe(true);
  });

  it('ends delegations with every reason, the expiry by the EndBlock sweep', () => {
    const ended = ofType('svc.delegation.v1.EventDelegationEnded');
    expect(
      reasons(
        ended.filter((e) => e.txIndex >= 0),
        'reason',
      ),
    ).toEqual(new Set(['END_REASON_REVOKED', 'END_REASON_RETURNED']));
    expect(reasons(blockEvents('svc.delegation.v1.EventDelegationEnded', 'EndBlock'), 'reason')).toEqual(
      new Set(['END_REASON_EXPIRED']),
    );
  });

  it('attests, revokes, and lets an attestation lapse', () => {
    const attested = txEvents('svc.attestation.v1.EventAttested');
    expect(attested.length).toBeGreaterThan(3);
    expect(txEvents('svc.attestation.v1.EventAttestationRevoked').length).toBeGreaterThan(0);
    const last = Number(history.chain.block(120)!.header.time.seconds) * 1000;
    expect(attested.some((e) => Date.parse(String(typedValue(e, 'expiry'))) < last)).toBe(true);
  });

  it('bridges out and in on every route, and rejects with bridge/4 and bridge/5', () => {
    const out = txEvents('svc.bridge.v1.EventBridgedOut');
    const inbound = txEvents('svc.bridge.v1.EventBridgedIn');
    const routes = ['svc-native-out', 'weth-synthetic-in', 'qsr-income-right-out'];
    expect(reasons(out, 'route_id')).toEqual(new Set(routes));
    expect(reasons(inbound, 'route_id')).toEqual(new Set(routes));
    const rejected = chain.txs.filter(
      (t) => t.typeUrls[0] === '/svc.bridge.v1.MsgBridgeOut' && t.codespace === 'bridge',
    );
    expect(new Set(rejected.map((t) => t.code))).toEqual(new Set([4, 5]));
    expect(blockEvents('svc.bridge.v1.EventEscrowIncomeSwept', 'BeginBlock').length).toBeGreaterThan(0);
  });

  it('liquidates through the waterfall: tiers, redemption, completion; and redeems a funded bond pool', () => {
    const started = txEvents('svc.waterfall.v1.EventLiquidationStarted');
    expect(started).toHaveLength(1);
    const tiers = typedValue(started[0], 'tiers') as { owed: string; paid: string }[];
    expect(tiers[0].paid).toBe(tiers[0].owed);
    expect(BigInt(tiers[1].paid)).toBeLessThan(BigInt(tiers[1].owed));
    expect(txEvents('svc.waterfall.v1.EventRedeemed').length).toBeGreaterThan(2);
    expect(txEvents('svc.waterfall.v1.EventLiquidationCompleted')).toHaveLength(1);
    expect(txEvents('svc.waterfall.v1.EventRedemptionFunded')).toHaveLength(1);
    expect(history.summary.statuses.asset.ASSET_STATUS_LIQUIDATED).toBe(1);
  });

  it('creates dex pools and swaps', () => {
    expect(txEvents('svc.dex.v1.EventPoolCreated')).toHaveLength(2);
    expect(reasons(txEvents('svc.dex.v1.EventSwapped'), 'sell_base')).toEqual(new Set([true, false]));
  });

  it('runs EVM txs of both forms: successes, an insufficient-units revert and a policy-denial revert', () => {
    const forms = new Set(chain.txs.flatMap((t) => t.typeUrls).filter((u) => u.endsWith('MsgEthereumTx')));
    expect(forms).toEqual(new Set(['/cosmos.evm.vm.v1.MsgEthereumTx', '/ethermint.evm.v1.MsgEthereumTx']));
    const executed = txEvents('svc.evm.v1.EventEthereumTxExecuted');
    expect(executed.some((e) => typedValue(e, 'status') === 1 && typedValue(e, 'contract_address') !== '')).toBe(true);
    expect(txEvents('svc.rights.v1.EventBundleTransferred').length).toBeGreaterThan(0);
    const reverts = executed
      .filter((e) => typedValue(e, 'status') === 0)
      .map((e) => revertReason(String(typedValue(e, 'return_data'))));
    expect(reverts).toContain('svc: insufficient transferable units');
    expect(reverts.some((r) => r?.startsWith('svc: policy denied: ') && r.endsWith('.transfer'))).toBe(true);
  });

  it('commits failed txs in at least three codespaces, including sdk insufficient funds on a bank send', () => {
    const failed = chain.txs.filter((t) => t.code !== 0);
    expect(new Set(failed.map((t) => t.codespace)).size).toBeGreaterThanOrEqual(3);
    expect(
      failed.some((t) => t.typeUrls[0] === '/cosmos.bank.v1beta1.MsgSend' && t.codespace === 'sdk' && t.code === 5),
    ).toBe(true);
    for (const space of ['rights', 'settlement', 'encumbrance', 'bridge'])
      expect(failed.some((t) => t.codespace === space)).toBe(true);
  });

  it('fails no tx by accident: every failure is one the scenario plans', () => {
    const planned = new Set([
      'sdk/5',
      'rights/2',
      'rights/4',
      'settlement/2',
      'settlement/3',
      'payout/2',
      'asset/5',
      'encumbrance/4',
      'bridge/4',
      'bridge/5',
    ]);
    const unplanned = chain.txs.filter((t) => t.code !== 0 && !planned.has(`${t.codespace}/${t.code}`));
    expect(unplanned).toEqual([]);
    // sdk/5 only from the deliberate bank send beyond the balance
    expect(
      chain.txs
        .filter((t) => t.codespace === 'sdk' && t.code === 5)
        .every((t) => t.typeUrls[0] === '/cosmos.bank.v1beta1.MsgSend'),
    ).toBe(true);
  });
});
