/**
 * The EVM view from what a real Cosmos EVM / Ethermint chain reports. The same seeded history is
 * generated twice: once with the devnet's own svc.evm.v1.EventEthereumTxExecuted, once without it
 * (`--cosmos-evm-events`: only the `ethereum_tx` event and the MsgEthereumTxResponse in the tx
 * result data, as cosmos/evm emits them). The real node indexes both; every EVM view must be the
 * same row for row, reverted calls included, and /v1/txs answers the same.
 */
import { generateHistory } from '../../devnet/scenario';
import { ensureProjectBuilt } from '../harness/indexed-store';
import { indexChain, type IndexedStore } from './indexer/indexed';

jest.setTimeout(600_000);

const SEED = 'evm-outcome';
const BLOCKS = 150;
const COLUMNS =
  'id, tx_hash, height, tx_index, msg_index, "from", "to", from_account, to_account, value::text, gas_used::text, status, vm_error, return_data, revert_reason, contract_address';

describe('EVM outcome without the svc event (as cosmos/evm reports it)', () => {
  let withEvent: IndexedStore;
  let cosmosOnly: IndexedStore;
  let eventTypes: Set<string>;

  beforeAll(async () => {
    ensureProjectBuilt();
    // without CheckTx's secp256k1 check: the scenario's txs are signed all the same and the blocks identical
    const history = { seed: SEED, blocks: BLOCKS, txsPerBlock: 10, skipSignatureVerification: true };
    const a = await generateHistory(history);
    // the first node starts and indexes while the second history is generated (two cores)
    const indexedWithEvent = indexChain(a.chain, 'evm_with_event');
    try {
      const b = await generateHistory({ ...history, evmOutcomeEvent: false });
      eventTypes = new Set();
      for (let h = 1; h <= b.chain.height; h++) {
        for (const tx of JSON.parse(b.chain.block(h)!.resultsJson).txs_results ?? [])
          for (const e of tx.events) eventTypes.add(e.type);
      }
      cosmosOnly = await indexChain(b.chain, 'evm_cosmos_only');
    } finally {
      withEvent = await indexedWithEvent; // afterAll closes whichever store was made
    }
  });
  afterAll(async () => {
    await withEvent?.close();
    await cosmosOnly?.close();
  });

  it('the second chain really has no svc EVM event, only ethereum_tx', () => {
    expect(eventTypes.has('ethereum_tx')).toBe(true);
    expect(eventTypes.has('svc.evm.v1.EventEthereumTxExecuted')).toBe(false);
  });

  it('every EVM view is the same, reverts with their reasons, failures at consensus level, creations with their contract', async () => {
    const rows = (s: IndexedStore) => s.sql(`SELECT ${COLUMNS} FROM svc.evm_txes ORDER BY id`);
    const expected = await rows(withEvent);
    const actual = await rows(cosmosOnly);
    expect(actual).toEqual(expected);
    expect(expected.length).toBeGreaterThan(10);
    const reverted = expected.filter((r) => r.status === 0 && r.vm_error);
    expect(reverted.length).toBeGreaterThan(0);
    // the precompile's Error(string) (insufficient units, a policy denial with its rule), not the bare VM error
    for (const r of reverted) expect(r.revert_reason).toMatch(/^svc: /);
    expect(expected.some((r) => r.status === 1)).toBe(true);
    expect(expected.some((r) => r.contract_address)).toBe(true);
  });

  it('the txs carrying them are the same too (eth hash linked, drift-free)', async () => {
    const txs = (s: IndexedStore) =>
      s.sql(`SELECT id, eth_hash, code FROM svc.txes WHERE eth_hash IS NOT NULL ORDER BY id`);
    expect(await txs(cosmosOnly)).toEqual(await txs(withEvent));
    const drifts = (s: IndexedStore) => s.sql('SELECT entity, field FROM svc.drifts');
    expect(await drifts(cosmosOnly)).toEqual([]);
  });
});
