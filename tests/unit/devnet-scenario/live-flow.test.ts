/**
 * The default world's live flow keeps the main equity sellable by its holders (docs/app-services.md,
 * "The default world's flow"): in services mode nothing the scenario does gives the lender or the
 * desk units (they never give them back), and a holder never delegates more than half of its VOTE
 * kind (a pool swap moves whole bundles, every kind). Both drained the holders' sell side, and
 * LNW's price rose ×2 every few simulated hours (bench/world-flow.ts).
 */
import { generateHistory, liveStartTime, type ScenarioEngine } from '../../../devnet/scenario';
import type { LaunchedAsset } from '../../../devnet/scenario/context';

jest.setTimeout(120_000);

const SEED = 'svc-devnet';
const HISTORY = 200;
const BLOCK_MS = 1000;
const LIVE_BLOCKS = 400;
const VOTE_KIND = 2;

type Json = Record<string, unknown>;

describe('the live flow of the default world, services mode', () => {
  let engine: ScenarioEngine;
  let equity: LaunchedAsset;
  const errors: string[] = [];
  /** the lender's and the desk's units of each kind of the main equity when live mode started */
  let servicesBefore: bigint[][];
  /** every live delegation of the main equity's VOTE kind: its units and the holder's position after it */
  const delegations: { units: bigint; after: { units: bigint; locked: bigint } }[] = [];

  const servicesUnits = () =>
    [engine.world.cast.roles.lender, engine.world.cast.roles.desk].map((a) =>
      Array.from(
        { length: equity.kindCount },
        (_, k) => engine.world.view.position(equity.assetId, k, a.address).units,
      ),
    );

  beforeAll(async () => {
    const history = await generateHistory({
      seed: SEED,
      blocks: HISTORY,
      txsPerBlock: 10,
      startTimeMs: liveStartTime({ seed: SEED, blocks: HISTORY }, BLOCK_MS, Date.UTC(2026, 11, 1)),
    });
    engine = history.engine;
    equity = engine.world.assets.get('equity')!;
    engine.enterLiveMode(BLOCK_MS, (flow, e) => errors.push(`${flow}: ${String(e)}`), { servicesMode: true });
    servicesBefore = servicesUnits();
    let time = engine.chain.lastBlockTimeMs;
    for (let i = 0; i < LIVE_BLOCKS; i++) {
      time += BLOCK_MS;
      const block = await engine.runBlock(time);
      for (const hash of block.txHashes) {
        const result = engine.chain.tx(hash)!.result;
        if (result.code !== 0) continue;
        for (const e of result.events) {
          if (e.type !== 'svc.delegation.v1.EventDelegated') continue;
          const a = Object.fromEntries(e.attributes.map((x) => [x.key, JSON.parse(x.value) as unknown]));
          if (a.asset_id !== equity.assetId || Number(a.kind_id) !== VOTE_KIND) continue;
          const after = (a.positions_after as Json[])[0];
          delegations.push({
            units: BigInt(String(a.units)),
            after: { units: BigInt(String(after.units)), locked: BigInt(String(after.locked)) },
          });
        }
      }
    }
  });

  it('runs without a flow error', () => {
    expect(errors).toEqual([]);
  });

  it('gives the lender and the desk none of the main equity: what they hold is what they held', () => {
    expect(servicesUnits()).toEqual(servicesBefore);
  });

  it('has holders delegate VOTE units, never past half of what they hold', () => {
    expect(delegations.length).toBeGreaterThan(50);
    const past = delegations.filter((d) => d.after.locked * 2n > d.after.units);
    expect(past).toEqual([]);
  });
});
