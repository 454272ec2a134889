/**
 * A seeded mixed load for the devnet app (transfers, sends, distributions,
 * claims, settlements, pledges, delegations; 10 txs per block). Used by the
 * perf/determinism test and runnable as a benchmark:
 *
 *   npx ts-node --transpile-only tests/unit/devnet/load.ts 100000
 */
import { Harness, addr, createAsset, issue, msg, rfc } from './harness';
import type { TxResult, TxMessage } from '../../../devnet/app';

export interface LoadResult {
  txs: number;
  failed: number;
  height: number;
  appHash: string;
  seconds: number;
}

export function runMixedLoad(txs: number, log: (line: string) => void = () => undefined): LoadResult {
  const issuer = addr(1);
  const holders = Array.from({ length: 200 }, (_, i) => addr(10 + i));
  const coins = [
    { denom: 'uusdc', amount: '100000000000' },
    { denom: 'usvc', amount: '100000000000' },
  ];
  const h = new Harness({ genesis: { balances: [issuer, ...holders].map((address) => ({ address, coins })) } });
  const assets = [createAsset(h, issuer), createAsset(h, issuer)];
  for (const a of assets) for (const x of holders) for (const k of [0, 1, 2]) issue(h, issuer, a, k, x, '1000000000');
  h.commit();
  let seed = 1;
  const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  const pendingSettlements: [number, string][] = [];
  const activePledges: [number, string][] = [];
  let settlementId = 0;
  let encumbranceId = 0;
  let failed = 0;
  const started = process.hrtime.bigint();
  const run = (signer: string, m: TxMessage): TxResult => h.tx(signer, m, { fee: [{ denom: 'usvc', amount: '100' }] });
  for (let i = 0; i < txs; i++) {
    const a = assets[rnd(2)];
    const from = holders[rnd(holders.length)];
    let to = holders[rnd(holders.length)];
    if (to === from) to = holders[(holders.indexOf(from) + 1) % holders.length];
    const r = rnd(100);
    let res: TxResult;
    if (r < 50)
      res = run(
        from,
        msg('/svc.rights.v1.MsgTransfer', {
          sender: from,
          recipient: to,
          asset_id: a,
          kind_id: rnd(3),
          units: String(1 + rnd(1000)),
        }),
      );
    else if (r < 58)
      res = run(
        from,
        msg('/cosmos.bank.v1beta1.MsgSend', {
          from_address: from,
          to_address: to,
          amount: [{ denom: 'uusdc', amount: '5' }],
        }),
      );
    else if (r < 62)
      res = run(
        issuer,
        msg('/svc.payout.v1.MsgDistribute', {
          payer: issuer,
          asset_id: a,
          kind_id: 1,
          amount: { denom: 'uusdc', amount: String(1000 + rnd(100000)) },
        }),
      );
    else if (r < 68)
      res = run(from, msg('/svc.payout.v1.MsgClaim', { claimer: from, asset_id: a, kind_id: 1, denom: 'uusdc' }));
    else if (r < 78) {
      res = run(
        from,
        msg('/svc.settlement.v1.MsgPropose', {
          proposer: from,
          counterparty: to,
          legs: [
            { direction: 'LEG_DIRECTION_GIVE', right: { asset_id: a, kind_id: 0, units: '10' } },
            { direction: 'LEG_DIRECTION_ASK', coin: { denom: 'uusdc', amount: '100' } },
          ],
          expiry: rfc(h.timeMs + 60_000 * (1 + rnd(30))),
        }),
      );
      if (res.code === 0) pendingSettlements.push([++settlementId, to]);
    } else if (r < 82 && pendingSettlements.length) {
      const [id, counterparty] = pendingSettlements.shift()!;
      res = run(counterparty, msg('/svc.settlement.v1.MsgAccept', { counterparty, settlement_id: String(id) }));
    } else if (r < 90) {
      res = run(
        from,
        msg('/svc.encumbrance.v1.MsgCreateEncumbrance', {
          creator: from,
          kind: 'ENCUMBRANCE_KIND_PLEDGE',
          asset_id: a,
          kind_id: 1,
          holder: from,
          units: '100',
          beneficiary: to,
          income_to_beneficiary: true,
          exercisable: true,
          expiry: rfc(h.timeMs + 60_000 * (1 + rnd(60))),
        }),
      );
      if (res.code === 0) activePledges.push([++encumbranceId, to]);
    } else if (r < 94 && activePledges.length) {
      const [id, beneficiary] = activePledges.shift()!;
      res = run(
        beneficiary,
        msg('/svc.encumbrance.v1.MsgRelease', { sender: beneficiary, encumbrance_id: String(id) }),
      );
    } else {
      res = run(
        from,
        msg('/svc.delegation.v1.MsgDelegate', {
          holder: from,
          delegate: to,
          asset_id: a,
          kind_id: 2,
          units: '5',
          until: rfc(h.timeMs + 60_000 * (1 + rnd(60))),
          revocable: true,
        }),
      );
    }
    if (res.code !== 0) failed++;
    if (i % 10 === 9) h.commit();
    if (i % 20000 === 19999)
      log(`${i + 1} txs, ${Number(process.hrtime.bigint() - started) / 1e9} s, failed ${failed}`);
  }
  h.commit();
  return {
    txs,
    failed,
    height: h.height,
    appHash: Buffer.from(h.app.appHash).toString('hex'),
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
  };
}

if (require.main === module) {
  const result = runMixedLoad(Number(process.argv[2] ?? 100000), (line) => console.log(line));
  console.log(JSON.stringify(result));
}
