/**
 * Services mode: in live mode the lender and desk keys belong to the app
 * services, so the scenario never signs as them and plays only the other side
 * of their flows. The test signs as the services itself (signTx + CheckTx, as
 * a broadcast would) between live blocks produced at synthetic times, and
 * reads what happened from the committed blocks. The embedded devnet of
 * `npm start` is checked too: a journal with the services' txs in it replays
 * to the same hashes, also when the mode changed between runs.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import { PubKey } from 'cosmjs-types/cosmos/crypto/secp256k1/keys';
import { AuthInfo, TxBody, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import type { DevnetChain } from '../../../devnet/chain';
import { generateHistory, type ScenarioEngine } from '../../../devnet/scenario';
import { createCast, type Actor } from '../../../devnet/scenario/accounts';
import * as msg from '../../../devnet/scenario/messages';
import { startEmbeddedDevnet } from '../../../src/runtime/devnet';
import { DevnetJournal } from '../../../src/runtime/devnet-journal';
import { createLogger } from '../../../src/runtime/logger';
import { signTx } from '../../../src/client/registry';
import { DEFAULT_CHAIN_CONFIG } from '../../../src/lib/config';
import { decodeMessage } from '../../../src/lib/contract';

jest.setTimeout(120_000);

const { gasDenom: GAS, stableDenom: STABLE } = DEFAULT_CHAIN_CONFIG;
const WHOLE = 1_000_000n;
const BLOCK_MS = 1000;
const PRINCIPAL = 1_000n * WHOLE;

type Json = Record<string, unknown>;

interface LiveMessage {
  height: number;
  hash: string;
  typeUrl: string;
  /** proto-JSON of svc messages; empty for others */
  value: Json;
}

/** Signs one tx as `actor` at its committed sequence and puts it through CheckTx; its hash. */
async function submitAs(chain: DevnetChain, actor: Actor, messages: msg.Msg[]): Promise<string> {
  const account = chain.app.account(actor.address)!;
  const tx = await signTx(actor.wallet, {
    messages,
    accountNumber: account.accountNumber,
    sequence: account.sequence,
    chainId: chain.chainId,
    fee: { amount: [{ denom: GAS, amount: '5000' }], gas: 2_000_000n },
  });
  const r = await chain.checkTx(tx);
  if (r.code !== 0) throw new Error(`CheckTx refused the test's tx: ${r.codespace}/${r.code} ${r.log}`);
  return r.hash;
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** Hex public keys of the cosmos signers of a raw tx (none for EVM txs). */
function signerKeys(raw: Uint8Array): string[] {
  const auth = AuthInfo.decode(TxRaw.decode(raw).authInfoBytes);
  return auth.signerInfos.map((s) => hex(PubKey.decode(s.publicKey!.value).key));
}

async function publicKey(actor: Actor): Promise<string> {
  const [account] = await actor.wallet.getAccounts();
  return hex(account.pubkey);
}

/** Every message of the blocks above `after`, svc messages decoded. */
function messagesAfter(chain: DevnetChain, after: number): LiveMessage[] {
  const out: LiveMessage[] = [];
  for (let height = after + 1; height <= chain.height; height++) {
    const block = chain.block(height)!;
    block.txs.forEach((raw, i) => {
      for (const m of TxBody.decode(TxRaw.decode(raw).bodyBytes).messages) {
        const value = m.typeUrl.startsWith('/svc.') ? decodeMessage(m.typeUrl.slice(1), m.value) : {};
        out.push({ height, hash: block.txHashes[i], typeUrl: m.typeUrl, value });
      }
    });
  }
  return out;
}

/** The settlement ids a committed tx's MsgPropose messages created (from its events). */
function proposedIds(chain: DevnetChain, hash: string): number[] {
  const stored = chain.tx(hash)!;
  expect(stored.result.code).toBe(0);
  return stored.result.events
    .filter((e) => e.type === 'svc.settlement.v1.EventSettlementProposed')
    .map((e) => Number(JSON.parse(e.attributes.find((a) => a.key === 'settlement_id')!.value)));
}

describe('scenario in services mode', () => {
  let engine: ScenarioEngine;
  let chain: DevnetChain;
  let liveFrom: number;
  let time: number;
  const errors: string[] = [];
  /** txs the test signed as the lender or the desk */
  const ours = new Set<string>();
  let lender: Actor;
  let desk: Actor;

  const settlement = (id: number): Json | null => engine.world.view.settlement(id);
  const live = () => messagesAfter(chain, liveFrom);

  async function runBlocks(max: number, done: () => boolean = () => false): Promise<void> {
    for (let i = 0; i < max && !done(); i++) {
      time += BLOCK_MS;
      await engine.runBlock(time);
    }
  }

  const pledgesToLender = () =>
    live().filter(
      (m) =>
        m.typeUrl === '/svc.encumbrance.v1.MsgCreateEncumbrance' &&
        m.value.beneficiary === lender.address &&
        m.value.kind === 'ENCUMBRANCE_KIND_PLEDGE',
    );

  beforeAll(async () => {
    const history = await generateHistory({
      seed: 'services',
      blocks: 40,
      txsPerBlock: 10,
      startTimeMs: Date.UTC(2026, 0, 1),
      blockIntervalMs: 2 * 3_600_000,
    });
    engine = history.engine;
    chain = history.chain;
    ({ lender, desk } = engine.world.cast.roles);
    const onFlowError = (flow: string, e: unknown) =>
      errors.push(`${flow}: ${e instanceof Error ? e.message : String(e)}`);
    engine.enterLiveMode(BLOCK_MS, onFlowError, { servicesMode: true });
    // entering again (a journal replay does) keeps one desk-quotes flow and its state
    engine.enterLiveMode(BLOCK_MS, onFlowError, { servicesMode: true });
    liveFrom = chain.height;
    time = chain.lastBlockTimeMs;
    await runBlocks(60, () => pledgesToLender().length > 0);
  });

  it('adds the holders-answer flow once, however often live mode is entered', () => {
    expect(engine.world.flows.filter((f) => f.name === 'desk-quotes')).toHaveLength(1);
  });

  it('has borrowers pledge to the lender as before: one pledge per tx for every kind of one share, same units, all in one block', () => {
    const pledges = pledgesToLender();
    expect(pledges.length).toBeGreaterThan(0);
    const first = pledges.filter((p) => p.height === pledges[0].height && p.value.creator === pledges[0].value.creator);
    const equity = engine.world.assets.get('equity')!;
    expect(first.map((p) => p.value.kind_id).sort()).toEqual(Array.from({ length: equity.kindCount }, (_, k) => k));
    expect(new Set(first.map((p) => p.hash)).size).toBe(first.length);
    for (const p of first) {
      expect(p.value).toMatchObject({
        asset_id: equity.assetId,
        holder: p.value.creator,
        units: first[0].value.units,
        exercisable: true,
        income_to_beneficiary: true,
        expiry: null,
        holder_release_after: null,
      });
      expect(engine.world.cast.holders.map((h) => h.address)).toContain(p.value.creator);
    }
  });

  describe('with the test as the lender and the desk', () => {
    let borrower: Actor;
    let principalHeight: number;
    let deskProposals: number[];
    let repayment: LiveMessage | undefined;

    const repaymentProposal = () =>
      live().find(
        (m) =>
          m.typeUrl === '/svc.settlement.v1.MsgPropose' &&
          m.value.proposer === borrower.address &&
          m.value.counterparty === lender.address &&
          m.height > principalHeight,
      );

    beforeAll(async () => {
      const [pledge] = pledgesToLender();
      borrower = engine.world.cast.byAddress.get(String(pledge.value.creator))!;
      ours.add(
        await submitAs(chain, lender, [msg.bankSend(lender.address, borrower.address, [msg.coin(STABLE, PRINCIPAL)])]),
      );

      // the desk quotes four holders who hold equity: it gives coins and asks units (an RFQ answer)
      const equity = engine.world.assets.get('equity')!;
      const quoted = engine.world.cast.holders
        .filter((h) => engine.world.view.position(equity.assetId, 0, h.address).transferable >= 2n * WHOLE)
        .slice(0, 4);
      expect(quoted).toHaveLength(4);
      const legs = [msg.giveCoin(msg.coin(STABLE, 3n * WHOLE)), msg.askRight(equity.assetId, 0, WHOLE)];
      const quote = await submitAs(
        chain,
        desk,
        quoted.map((h) => msg.propose(desk.address, h.address, legs, time + 60_000)),
      );
      ours.add(quote);
      await runBlocks(1);
      principalHeight = chain.height;
      deskProposals = proposedIds(chain, quote);
      await runBlocks(20, () => repaymentProposal() !== undefined && chain.height >= principalHeight + 5);
      repayment = repaymentProposal();
    });

    it('has holders accept the desk proposals addressed to them (most of them) within a few blocks', () => {
      const statuses = deskProposals.map((id) => settlement(id)?.status);
      expect(statuses).toHaveLength(4);
      expect(statuses.filter((s) => s === 'STATUS_SETTLED').length).toBeGreaterThanOrEqual(1);
      // the others are left to expire, never cancelled
      for (const s of statuses) expect(['STATUS_SETTLED', 'STATUS_PENDING']).toContain(s);
      const accepts = live().filter(
        (m) => m.typeUrl === '/svc.settlement.v1.MsgAccept' && deskProposals.includes(Number(m.value.settlement_id)),
      );
      for (const a of accepts)
        expect(a.value.counterparty).toBe(settlement(Number(a.value.settlement_id))!.counterparty);
    });

    it('has the borrower repay a principal it received: one stable coin leg given, nothing asked, principal + 1 % + 1', () => {
      expect(repayment).toBeDefined();
      expect(repayment!.value.legs).toEqual([
        { direction: 'LEG_DIRECTION_GIVE', coin: { denom: STABLE, amount: String(PRINCIPAL + PRINCIPAL / 100n + 1n) } },
      ]);
    });

    it('leaves the repayment to the lender, whose accept and releases succeed', async () => {
      const [id] = proposedIds(chain, repayment!.hash);
      expect(settlement(id)!.status).toBe('STATUS_PENDING');
      const pledges = pledgesToLender().filter((p) => p.value.creator === borrower.address);
      const pledgeIds = pledges.flatMap((p) =>
        chain.tx(p.hash)!.result.events.filter((e) => e.type === 'svc.encumbrance.v1.EventEncumbranceCreated'),
      );
      const ids = pledgeIds.map((e) => Number(JSON.parse(e.attributes.find((a) => a.key === 'encumbrance_id')!.value)));
      const active = ids.filter((i) => engine.world.view.encumbrance(i)?.status === 'ENCUMBRANCE_STATUS_ACTIVE');
      expect(active.length).toBeGreaterThan(0);
      const accept = await submitAs(chain, lender, [
        msg.accept(lender.address, id),
        ...active.map((i) => msg.release(lender.address, i)),
      ]);
      ours.add(accept);
      await runBlocks(1);
      expect(chain.tx(accept)!.result.code).toBe(0);
      expect(settlement(id)!.status).toBe('STATUS_SETTLED');
      // and the scenario goes on around it
      await runBlocks(20);
    });

    it('never signs a live tx as the lender or the desk (only the test does)', async () => {
      const serviceKeys = new Set([await publicKey(lender), await publicKey(desk)]);
      let checked = 0;
      for (let height = liveFrom + 1; height <= chain.height; height++) {
        const block = chain.block(height)!;
        block.txs.forEach((raw, i) => {
          const signedByService = signerKeys(raw).some((k) => serviceKeys.has(k));
          expect({
            height,
            hash: block.txHashes[i],
            signedByService: signedByService && !ours.has(block.txHashes[i]),
          }).toMatchObject({ signedByService: false });
          checked += 1;
        });
      }
      expect(checked).toBeGreaterThan(100);
      expect([...ours].every((h) => chain.tx(h) !== undefined)).toBe(true);
    });
  });

  it('has holders offer the desk shares: every kind of one asset in equal units against one stable-denom leg asked', () => {
    const offers = live().filter(
      (m) => m.typeUrl === '/svc.settlement.v1.MsgPropose' && m.value.counterparty === desk.address,
    );
    expect(offers.length).toBeGreaterThan(0);
    for (const o of offers) {
      const legs = o.value.legs as Json[];
      const rights = legs.filter((l) => l.right).map((l): Json => ({ direction: l.direction, ...(l.right as Json) }));
      const coins = legs.filter((l) => l.coin);
      expect(coins).toEqual([
        { direction: 'LEG_DIRECTION_ASK', coin: { denom: STABLE, amount: expect.stringMatching(/^[1-9]\d*$/) } },
      ]);
      const asset = [...engine.world.assets.values()].find((a) => a.assetId === rights[0].asset_id)!;
      expect(rights.map((r) => r.kind_id)).toEqual(Array.from({ length: asset.kindCount }, (_, k) => k));
      for (const r of rights)
        expect(r).toMatchObject({ direction: 'LEG_DIRECTION_GIVE', asset_id: asset.assetId, units: rights[0].units });
      expect(engine.world.cast.holders.map((h) => h.address)).toContain(o.value.proposer);
    }
  });

  it('drops no flow in any of the live blocks above (a flow that tried to sign as a service role would be)', () => {
    expect(errors).toEqual([]);
  });
});

describe('the embedded devnet in services mode', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('replays a journal holding the services txs to the same hashes, in services mode and after the mode changed', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-services-mode-'));
    dirs.push(dir);
    const lines: Json[] = [];
    const log = createLogger({
      format: 'json',
      level: 'info',
      write: (text) =>
        text
          .split('\n')
          .filter(Boolean)
          .forEach((l) => lines.push(JSON.parse(l) as Json)),
    });
    // no snapshots: this is the replay from genesis, with the scenario planning along
    const config = {
      seed: 'services-journal',
      historyBlocks: 40,
      blockMs: 100,
      txsPerBlock: 5,
      port: 0,
      snapshotBlocks: 0,
    };
    const start = (servicesMode: boolean) =>
      startEmbeddedDevnet({ config, journal: DevnetJournal.open(dir), dataDir: dir, log, servicesMode });

    const first = await start(true);
    const { roles, holders } = await createCast({ seed: config.seed, hrp: DEFAULT_CHAIN_CONFIG.hrp });
    let last: string;
    try {
      const quote = await submitAs(first.chain, roles.desk, [
        msg.propose(
          roles.desk.address,
          holders[0].address,
          [msg.giveCoin(msg.coin(STABLE, WHOLE)), msg.askCoin(msg.coin(GAS, 1))],
          Date.now() + 60_000,
        ),
      ]);
      last = await submitAs(first.chain, roles.lender, [
        msg.bankSend(roles.lender.address, holders[1].address, [msg.coin(STABLE, 5n * WHOLE)]),
      ]);
      const included = await first.chain.waitForTx(last, 10_000);
      expect(included).toBeDefined();
      expect(first.chain.tx(quote)?.result.code).toBe(0);
      while (first.chain.height < included!.height + 5) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await first.close();
    }

    const saved = DevnetJournal.open(dir);
    for (const servicesMode of [true, false]) {
      lines.length = 0;
      const again = await start(servicesMode);
      try {
        expect(again.replayedBlocks).toBeGreaterThanOrEqual(saved.height - config.historyBlocks);
        for (let h = 1; h <= saved.height; h++)
          expect(Buffer.from(again.chain.block(h)!.blockId.hash).toString('hex').toUpperCase()).toBe(saved.hashAt(h));
        expect(again.chain.tx(last)).toBeDefined();
        const unplanned = lines.find((l) => l.msg === 'replayed txs from outside the scenario');
        // same mode: the scenario planned every journaled tx but the two the test signed as the services
        if (servicesMode) expect(unplanned?.txs).toBe(2);
      } finally {
        await again.close();
      }
    }
  });
});
