/**
 * Exactly-once chain actions on real PostgreSQL and the devnet's RPC: the intent log in
 * process, and a separate acting process killed (SIGKILL) at each step of an action, then
 * restarted: the action happens once on the chain whatever step the crash hit.
 */
import { spawn } from 'child_process';
import path from 'path';
import { connectChain, type ChainClient } from '../../../app-services/chain/chain-client';
import { ChainSigner } from '../../../app-services/chain/signer';
import { IntentLog, type Intent } from '../../../app-services/intents/intent-log';
import { migrate } from '../../../app-services/store/migrations';
import { bankSend, startTestChain, TEST_FEE, testKey, type TestChain, type TestKey } from '../../harness/app-chain';
import { createTestSchema } from '../../harness/db';
import type { TestSchema } from '../../harness/postgres';

const REPO = path.resolve(__dirname, '..', '..', '..');
const TS_NODE = path.join(REPO, 'node_modules', '.bin', 'ts-node');

let db: TestSchema;
let chain: TestChain;
let client: ChainClient;
let lender: TestKey;
let borrower: TestKey;

beforeAll(async () => {
  db = await createTestSchema('intents');
  await migrate(db.pool, db.schema);
  lender = await testKey('intent-lender');
  borrower = await testKey('intent-borrower');
  chain = await startTestChain([lender.address]);
  client = await connectChain(chain.rpcUrl);
});

afterAll(async () => {
  client.disconnect();
  await chain.close();
  await db.drop();
});

interface ActorRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  intent?: Intent & { sequence: string | null };
  stderr: string;
}

/** Runs tests/harness/intent-actor.ts once: one send of `amount` as intent `id`. */
function runActor(id: string, amount: bigint, failpoint?: string): Promise<ActorRun> {
  const env = {
    ...process.env,
    DATABASE_URL: db.url,
    APP_SCHEMA: db.schema,
    CHAIN_RPC_URL: chain.rpcUrl,
    KEY_HEX: lender.hex,
    INTENT_ID: id,
    RECIPIENT: borrower.address,
    AMOUNT: amount.toString(),
    APP_FAILPOINT: failpoint ?? '',
  };
  return new Promise((resolve, reject) => {
    const child = spawn(TS_NODE, ['--transpile-only', path.join(REPO, 'tests/harness/intent-actor.ts')], {
      cwd: REPO,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      const line = stdout.trim().split('\n').pop();
      resolve({ code, signal, stderr, intent: line ? JSON.parse(line) : undefined });
    });
  });
}

async function row(id: string) {
  const { rows } = await db.pool.query(
    `SELECT status, tx_hash, attempts, sequence FROM ${db.schema}.intents WHERE id = $1`,
    [id],
  );
  return rows[0] as { status: string; tx_hash: string | null; attempts: number; sequence: string | null } | undefined;
}

const sequenceOf = async (address: string) => (await client.account(address))!.sequence;

describe('in one process', () => {
  test('the same intent id acts once: a second perform answers the settled record without a tx', async () => {
    const signer = new ChainSigner(client, lender.wallet, lender.address, { fee: TEST_FEE, pollMs: 20 });
    const log = new IntentLog({ pool: db.pool, schema: db.schema, signer, inclusionTimeoutMs: 5000 });
    const before = chain.balance(borrower.address);
    chain.startBlocks(100);
    try {
      const request = { id: 'once/1', kind: 'test.send', messages: [bankSend(lender.address, borrower.address, 7n)] };
      const [first, concurrent] = await Promise.all([log.perform(request), log.perform(request)]);
      const sequence = await sequenceOf(lender.address);
      const again = await log.perform(request);
      expect(first).toEqual(concurrent);
      expect(first.status).toBe('committed');
      expect(again).toEqual(first);
      expect(await sequenceOf(lender.address)).toBe(sequence);
      expect(chain.balance(borrower.address) - before).toBe(7n);
    } finally {
      chain.stopBlocks();
    }
  });

  test('a tx refused at CheckTx settles the intent as rejected, and it is never retried', async () => {
    const signer = new ChainSigner(client, lender.wallet, lender.address, { fee: TEST_FEE, pollMs: 20 });
    const log = new IntentLog({ pool: db.pool, schema: db.schema, signer });
    const refused = await log.perform({
      id: 'refused/1',
      kind: 'test.send',
      messages: [bankSend(borrower.address, lender.address, 1n)],
    });
    expect(refused.status).toBe('rejected');
    expect(refused.code).not.toBe(0);
    expect(await log.reconcileOpen()).toEqual([]);
  });
});

describe('a separate acting process killed during an action', () => {
  test.each([
    ['after-record', 'intent written, nothing signed'],
    ['before-broadcast', 'tx signed and written, never broadcast'],
    ['after-broadcast', 'tx broadcast, its outcome not written'],
  ])(
    'killed at %s (%s): the restarted process completes the action exactly once',
    async (failpoint) => {
      const id = `crash/${failpoint}`;
      const amount = 1000n + BigInt(failpoint.length);
      const before = chain.balance(borrower.address);
      const sequenceBefore = await sequenceOf(lender.address);

      const crashed = await runActor(id, amount, failpoint);
      expect(crashed.signal).toBe('SIGKILL');
      const left = await row(id);
      expect(left!.status).toBe(failpoint === 'after-record' ? 'pending' : 'signed');
      // whatever reached the mempool before the crash goes into a block while the process is down
      chain.produceBlock();
      const landedWhileDown = chain.balance(borrower.address) - before;
      expect(landedWhileDown).toBe(failpoint === 'after-broadcast' ? amount : 0n);

      chain.startBlocks(100);
      try {
        const restarted = await runActor(id, amount);
        expect({ code: restarted.code, stderr: restarted.stderr }).toEqual({ code: 0, stderr: '' });
        expect(restarted.intent!.status).toBe('committed');
        if (failpoint !== 'after-record') expect(restarted.intent!.txHash).toBe(left!.tx_hash);
        // and once more: a third start finds it settled and does nothing
        const third = await runActor(id, amount);
        expect(third.intent!.txHash).toBe(restarted.intent!.txHash);
      } finally {
        chain.stopBlocks();
      }
      expect(chain.balance(borrower.address) - before).toBe(amount);
      expect(await sequenceOf(lender.address)).toBe(sequenceBefore + 1n);
    },
    60_000,
  );

  test('a signed tx whose sequence another tx used can never land: the restart signs the action anew, once', async () => {
    const id = 'crash/superseded';
    const amount = 2222n;
    const before = chain.balance(borrower.address);
    const crashed = await runActor(id, amount, 'before-broadcast');
    expect(crashed.signal).toBe('SIGKILL');
    const left = await row(id);
    // the key signs something else at that sequence (as an operator might by hand)
    const outsider = new ChainSigner(client, lender.wallet, lender.address, { fee: TEST_FEE });
    const spent = await outsider.submit([bankSend(lender.address, lender.address, 1n)], async () => undefined);
    expect(spent.signed.sequence).toBe(BigInt(left!.sequence!));
    chain.produceBlock();

    chain.startBlocks(100);
    try {
      const restarted = await runActor(id, amount);
      expect(restarted.intent!.status).toBe('committed');
      expect(restarted.intent!.txHash).not.toBe(left!.tx_hash);
      expect(restarted.intent!.attempts).toBe(2);
    } finally {
      chain.stopBlocks();
    }
    expect(await client.findTx(left!.tx_hash!)).toBeNull();
    expect(chain.balance(borrower.address) - before).toBe(amount);
  }, 60_000);
});
