import { fromBase64 } from '@cosmjs/encoding';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { DevnetChain, MempoolError } from '../../../devnet/chain';
import { FakeApp } from './fake-app';
import { CHAIN_ID, fixture, signed, T0, transferMsg } from './helpers';

const SECOND = 1000;

describe('DevnetChain block production', () => {
  it('produces an empty first block with CometBFT height-1 conventions', async () => {
    const { chain } = await fixture();
    const b = chain.produceBlock(T0);
    const json = JSON.parse(b.blockJson);
    expect(json.block.header.height).toBe('1');
    expect(json.block.header.last_block_id).toEqual({ hash: '', parts: { total: 0, hash: '' } });
    expect(json.block.header.data_hash).toBe('E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855');
    expect(json.block.header.proposer_address).toMatch(/^[0-9A-F]{40}$/);
    expect(json.block.header.time).toBe('2024-01-02T00:00:00Z');
    expect(json.block.last_commit).toEqual({
      height: '0',
      round: 0,
      block_id: { hash: '', parts: { total: 0, hash: '' } },
      signatures: [],
    });
    expect(json.block.data.txs).toEqual([]);
    expect(json.block_id.hash).toMatch(/^[0-9A-F]{64}$/);
    const results = JSON.parse(b.resultsJson);
    expect(results).toMatchObject({
      height: '1',
      txs_results: null,
      validator_updates: null,
      consensus_param_updates: null,
    });
    expect(results.finalize_block_events).toEqual([
      {
        type: 'svc.test.v1.EventBegin',
        attributes: [
          { key: 'height', value: '"1"', index: true },
          { key: 'mode', value: 'BeginBlock', index: false },
        ],
      },
    ]);
  });

  it('links blocks: last_block_id, last_commit, app hash and results hash of the previous block', async () => {
    const { chain, alice, bob } = await fixture();
    chain.produceBlock(T0);
    const r = await chain.checkTx(
      await signed(alice, [transferMsg(alice.address, bob.address, '5')], { accountNumber: 0, sequence: 0 }),
    );
    expect(r.code).toBe(0);
    const b2 = chain.produceBlock(T0 + SECOND);
    const b3 = chain.produceBlock(T0 + 2 * SECOND + 500);
    const h2 = JSON.parse(b2.blockJson);
    const h3 = JSON.parse(b3.blockJson);
    expect(h3.block.header.last_block_id).toEqual(h2.block_id);
    expect(h3.block.last_commit.block_id).toEqual(h2.block_id);
    expect(h3.block.last_commit.signatures[0]).toMatchObject({ block_id_flag: 2, timestamp: '2024-01-02T00:00:02.5Z' });
    expect(Buffer.from(h3.block.last_commit.signatures[0].signature, 'base64')).toHaveLength(64);
    expect(h3.block.header.app_hash).toBe(Buffer.from(b2.appHash).toString('hex').toUpperCase());
    expect(h3.block.header.last_results_hash).not.toBe(h2.block.header.last_results_hash);
    expect(JSON.parse(b3.resultsJson).finalize_block_events.map((e: { type: string }) => e.type)).toEqual([
      'svc.test.v1.EventBegin',
    ]);
    expect(JSON.parse(b2.resultsJson).finalize_block_events[1]).toEqual({
      type: 'svc.test.v1.EventSweep',
      attributes: [{ key: 'mode', value: 'EndBlock', index: false }],
    });
  });

  it('runs ante then the messages, ante events first; a failed message keeps only the ante events', async () => {
    const { chain, alice, bob, app } = await fixture();
    await chain.checkTx(
      await signed(alice, [transferMsg(alice.address, bob.address, '600')], { accountNumber: 0, sequence: 0 }),
    );
    await chain.checkTx(
      await signed(alice, [transferMsg(alice.address, bob.address, '600')], { accountNumber: 0, sequence: 1 }),
    );
    const b = chain.produceBlock(T0);
    const results = JSON.parse(b.resultsJson).txs_results;
    expect(results).toHaveLength(2);
    expect(results[0]).toMatchObject({
      code: 0,
      codespace: '',
      gas_wanted: '200000',
      gas_used: '60001',
      data: null,
      info: '',
      log: '',
    });
    expect(results[0].events.map((e: { type: string }) => e.type)).toEqual([
      'tx',
      'tx',
      'message',
      'svc.rights.v1.EventTransfer',
    ]);
    expect(results[1]).toMatchObject({ code: 3, codespace: 'rights', log: 'insufficient units: 400 < 600' });
    expect(results[1].events.map((e: { type: string }) => e.type)).toEqual(['tx', 'tx']);
    expect(app.balance(alice.address, 'usvc')).toBe(1_000_000n - 10_000n);
    expect(chain.tx(b.txHashes[1])).toMatchObject({ height: 1, index: 1 });
  });

  it('includes a tx whose ante fails with the ante code and no events', async () => {
    const { chain, alice, bob, app } = await fixture();
    app.credit(bob.address, {});
    await chain.checkTx(
      await signed(
        alice,
        [transferMsg(alice.address, bob.address, '1')],
        { accountNumber: 0, sequence: 0 },
        { fee: { amount: [{ denom: 'usvc', amount: '99000000' }], gas: 1 } },
      ),
    );
    const r = JSON.parse(chain.produceBlock(T0).resultsJson).txs_results[0];
    expect(r).toMatchObject({ code: 5, codespace: 'sdk', events: [], gas_wanted: '1' });
    expect(r.log).toMatch(/insufficient funds/);
    expect(Number(r.gas_used)).toBeGreaterThan(1000);
  });

  it('tracks mempool sequences at CheckTx and re-checks them at delivery', async () => {
    const { chain, alice, bob } = await fixture();
    const tx0 = await signed(alice, [transferMsg(alice.address, bob.address, '1')], { accountNumber: 0, sequence: 0 });
    const tx1 = await signed(alice, [transferMsg(alice.address, bob.address, '2')], { accountNumber: 0, sequence: 1 });
    const early = await signed(alice, [transferMsg(alice.address, bob.address, '3')], {
      accountNumber: 0,
      sequence: 5,
    });
    const [r0, r1, rEarly] = await Promise.all([chain.checkTx(tx0), chain.checkTx(tx1), chain.checkTx(early)]);
    expect([r0.code, r1.code, rEarly.code]).toEqual([0, 0, 32]);
    expect(rEarly.log).toBe('account sequence mismatch, expected 2, got 5: incorrect account sequence');
    expect(chain.unconfirmedTxs()).toHaveLength(2);
    chain.produceBlock(T0);
    expect(chain.unconfirmedTxs()).toHaveLength(0);
    expect(chain.app.account(alice.address)?.sequence).toBe(2n);
  });

  it('refuses duplicates and oversized txs at admission (MempoolError)', async () => {
    const { chain, alice, bob } = await fixture();
    const tx = await signed(alice, [transferMsg(alice.address, bob.address, '1')], { accountNumber: 0, sequence: 0 });
    await chain.checkTx(tx);
    await expect(chain.checkTx(tx)).rejects.toThrow(MempoolError);
    chain.produceBlock(T0);
    await expect(chain.checkTx(tx)).rejects.toThrow('tx already exists in cache');
    const small = await DevnetChain.create({ app: new FakeApp([]), maxTxBytes: 10 });
    await expect(small.checkTx(tx)).rejects.toThrow(/tx too large/);
  });

  it('skipSignatureVerification (trusted history generation) still checks accounts and sequences', async () => {
    const { alice, bob, app } = await fixture();
    const fast = await DevnetChain.create({ app, chainId: CHAIN_ID, skipSignatureVerification: true });
    const raw = TxRaw.decode(
      await signed(alice, [transferMsg(alice.address, bob.address, '1')], { accountNumber: 0, sequence: 0 }),
    );
    raw.signatures[0][3] ^= 1;
    expect((await fast.checkTx(TxRaw.encode(raw).finish())).code).toBe(0);
    const stale = await signed(
      alice,
      [transferMsg(alice.address, bob.address, '1')],
      { accountNumber: 0, sequence: 0 },
      { memo: 'again' },
    );
    expect((await fast.checkTx(stale)).code).toBe(32);
  });

  it('requires strictly increasing block times', async () => {
    const { chain } = await fixture();
    chain.produceBlock(T0);
    expect(() => chain.produceBlock(T0)).toThrow(RangeError);
  });

  it('is deterministic: same txs and times give byte-identical blocks and hashes', async () => {
    const run = async () => {
      const { chain, alice, bob } = await fixture();
      for (let h = 0; h < 5; h++) {
        for (let s = 0; s < 3; s++) {
          const seq = h * 3 + s;
          expect(
            (
              await chain.checkTx(
                await signed(alice, [transferMsg(alice.address, bob.address, String(seq + 1))], {
                  accountNumber: 0,
                  sequence: seq,
                }),
              )
            ).code,
          ).toBe(0);
        }
        chain.produceBlock(T0 + h * 5 * SECOND + 123);
      }
      return [1, 2, 3, 4, 5].map((h) => chain.block(h)!);
    };
    const [a, b] = await Promise.all([run(), run()]);
    expect(a.map((x) => x.blockJson)).toEqual(b.map((x) => x.blockJson));
    expect(a.map((x) => x.resultsJson)).toEqual(b.map((x) => x.resultsJson));
    expect(new Set(a.map((x) => Buffer.from(x.blockId.hash).toString('hex'))).size).toBe(5);
  });

  it('stores each tx as included (raw bytes decode as TxRaw) and waits for inclusion', async () => {
    const { chain, alice, bob } = await fixture();
    const bytes = await signed(alice, [transferMsg(alice.address, bob.address, '1')], {
      accountNumber: 0,
      sequence: 0,
    });
    const r = await chain.checkTx(bytes);
    const waiting = chain.waitForTx(r.hash, 5000);
    chain.produceBlock(T0);
    const stored = await waiting;
    expect(stored?.height).toBe(1);
    const txs = JSON.parse(chain.block(1)!.blockJson).block.data.txs;
    expect(TxRaw.decode(fromBase64(txs[0])).signatures).toHaveLength(1);
    expect(await chain.waitForTx('00'.repeat(32), 10)).toBeUndefined();
  });

  it('live mode produces blocks on a timer with increasing times', async () => {
    const { chain } = await fixture();
    chain.startLive(20);
    await new Promise((r) => setTimeout(r, 150));
    chain.stopLive();
    expect(chain.height).toBeGreaterThanOrEqual(2);
    expect(
      chain.block(2)!.header.time.seconds * 1000n + BigInt(chain.block(2)!.header.time.nanos / 1e6),
    ).toBeGreaterThan(chain.block(1)!.header.time.seconds * 1000n + BigInt(chain.block(1)!.header.time.nanos / 1e6));
  });

  it('live mode starts an empty chain with a block and reports app failures instead of crashing', async () => {
    const { chain, app } = await fixture();
    chain.startLive(60_000);
    expect(chain.height).toBe(1);
    chain.stopLive();
    const errors: unknown[] = [];
    jest.spyOn(app, 'beginBlock').mockImplementation(() => {
      throw new Error('boom');
    });
    chain.startLive(10, (e) => errors.push(e));
    await new Promise((r) => setTimeout(r, 60));
    chain.stopLive();
    expect(errors.length).toBeGreaterThan(0);
    expect((errors[0] as Error).message).toBe('boom');
  });
});
