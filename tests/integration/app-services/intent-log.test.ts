/**
 * Exactly-once chain actions on real PostgreSQL and the devnet's RPC: the intent log in
 * process, and a separate acting process killed (SIGKILL) at each step of an action, then
 * restarted: the action happens once on the chain whatever step the crash hit, also when
 * the node's tx index misses the committed tx, and when the process lost its lock while
 * paused and a standby took over.
 */
import { spawn, type ChildProcess } from 'child_process';
import fs from 'fs';
import path from 'path';
import { Client, Pool } from 'pg';
import { claimEpoch, lockKey } from '../../../app-services/actor-lock';
import { connectChain, type ChainClient } from '../../../app-services/chain/chain-client';
import { ChainSigner } from '../../../app-services/chain/signer';
import { FencedOut, IntentLog, type Intent } from '../../../app-services/intents/intent-log';
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

/** Starts tests/harness/intent-actor.ts: one send of `amount` as intent `id`; `done` when it exits. */
function startActor(id: string, amount: bigint, failpoint?: string): { child: ChildProcess; done: Promise<ActorRun> } {
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
  const child = spawn(TS_NODE, ['--transpile-only', path.join(REPO, 'tests/harness/intent-actor.ts')], {
    cwd: REPO,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const done = new Promise<ActorRun>((resolve, reject) => {
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
  return { child, done };
}

const runActor = (id: string, amount: bigint, failpoint?: string) => startActor(id, amount, failpoint).done;

/** This test's own claim of the key's lock epoch (as an acting process makes when it takes the lock). */
async function claim(address: string, pool = db.pool): Promise<bigint> {
  const c = await pool.connect();
  try {
    return await claimEpoch(c, db.schema, address);
  } finally {
    c.release();
  }
}

async function row(id: string) {
  const { rows } = await db.pool.query(
    `SELECT status, tx_hash, attempts, sequence FROM ${db.schema}.intents WHERE id = $1`,
    [id],
  );
  return rows[0] as { status: string; tx_hash: string | null; attempts: number; sequence: string | null } | undefined;
}

/** Until process `pid` is stopped (state T in /proc): it reached its pause failpoint. */
async function waitStopped(pid: number, ms = 30_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('T')) return;
    if (Date.now() - started > ms) throw new Error(`process ${pid} did not pause in ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** What an administrator or a network cut does to the session holding a key's lock. */
async function terminateLockSession(address: string): Promise<void> {
  const admin = new Client({ connectionString: db.url });
  await admin.connect();
  const { rows } = await admin.query(
    `SELECT pg_terminate_backend(pid) AS ok FROM pg_locks WHERE locktype = 'advisory' AND objid = ($1::bigint & 4294967295)::oid AND granted`,
    [lockKey(address).toString()],
  );
  await admin.end();
  expect(rows.map((r) => r.ok)).toEqual([true]);
}

const sequenceOf = async (address: string) => (await client.account(address))!.sequence;

describe('in one process', () => {
  test('the same intent id acts once: a second perform answers the settled record without a tx', async () => {
    const signer = new ChainSigner(client, lender.wallet, lender.address, { fee: TEST_FEE, pollMs: 20 });
    const log = new IntentLog({
      pool: db.pool,
      schema: db.schema,
      signer,
      inclusionTimeoutMs: 5000,
      epoch: await claim(lender.address),
    });
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
    const log = new IntentLog({ pool: db.pool, schema: db.schema, signer, epoch: await claim(lender.address) });
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

describe('fencing, durability, retries and gas, in one process', () => {
  const newLog = async (extra: Partial<ConstructorParameters<typeof IntentLog>[0]> = {}, pool = db.pool) =>
    new IntentLog({
      pool,
      schema: db.schema,
      signer: new ChainSigner(client, lender.wallet, lender.address, { fee: TEST_FEE, pollMs: 20 }),
      inclusionTimeoutMs: 5000,
      ...extra,
      epoch: extra.epoch ?? (await claim(lender.address)),
    });

  test("a log whose epoch is no longer the key's signs nothing: FencedOut, the intent stays pending, the chain sees nothing", async () => {
    const fenced: FencedOut[] = [];
    const log = await newLog({ onFencedOut: (e) => fenced.push(e) });
    await claim(lender.address); // another process took the lock since
    const sequence = await sequenceOf(lender.address);
    const request = { id: 'fenced/1', kind: 'test.send', messages: [bankSend(lender.address, borrower.address, 3n)] };
    await expect(log.perform(request)).rejects.toBeInstanceOf(FencedOut);
    expect(fenced).toHaveLength(1);
    expect((await row('fenced/1'))!.status).toBe('pending');
    chain.produceBlock();
    expect(await sequenceOf(lender.address)).toBe(sequence);
    // and a log with the current epoch carries the same intent on, once
    chain.startBlocks(100);
    try {
      const done = await (await newLog()).perform(request);
      expect([done.status, done.attempts]).toEqual(['committed', 1]);
    } finally {
      chain.stopBlocks();
    }
  });

  test('the intent, its signed bytes and the epoch commit with synchronous_commit on, on a server whose default is off', async () => {
    // a trigger records the setting inside each writing transaction
    const note = (tbl: string, status: string) => `
      CREATE FUNCTION ${db.schema}.note_sync_${tbl}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO ${db.schema}.sync_seen VALUES ('${tbl}', ${status}, current_setting('synchronous_commit'));
        RETURN NEW;
      END $$;
      CREATE TRIGGER note_sync BEFORE INSERT OR UPDATE ON ${db.schema}.${tbl}
        FOR EACH ROW EXECUTE FUNCTION ${db.schema}.note_sync_${tbl}();`;
    await db.pool.query(
      `CREATE TABLE ${db.schema}.sync_seen (tbl text, status text, setting text);` +
        note('intents', 'NEW.status') +
        note('actor_epochs', 'NULL'),
    );
    const asyncPool = new Pool({ connectionString: db.url, max: 2, options: '-c synchronous_commit=off' });
    chain.startBlocks(100);
    try {
      const log = await newLog({ epoch: await claim(lender.address, asyncPool) }, asyncPool);
      const done = await log.perform({
        id: 'durable/1',
        kind: 'test.send',
        messages: [bankSend(lender.address, borrower.address, 4n)],
      });
      expect(done.status).toBe('committed');
      const { rows } = await db.pool.query(`SELECT tbl, status, setting FROM ${db.schema}.sync_seen`);
      // the settings seen by the writes of that table (and status): an upsert fires both its triggers
      const seen = (tbl: string, status: string | null) => [
        ...new Set(rows.filter((r) => r.tbl === tbl && r.status === status).map((r) => r.setting)),
      ];
      expect((await asyncPool.query('SHOW synchronous_commit')).rows[0].synchronous_commit).toBe('off');
      expect(seen('actor_epochs', null)).toEqual(['on']);
      expect(seen('intents', 'pending')).toEqual(['on']);
      expect(seen('intents', 'signed')).toEqual(['on']);
    } finally {
      chain.stopBlocks();
      await db.pool.query(`DROP TABLE ${db.schema}.sync_seen;
        DROP TRIGGER note_sync ON ${db.schema}.intents; DROP TRIGGER note_sync ON ${db.schema}.actor_epochs;
        DROP FUNCTION ${db.schema}.note_sync_intents(); DROP FUNCTION ${db.schema}.note_sync_actor_epochs();`);
      await asyncPool.end();
    }
  });

  test('performRetrying: a failed attempt is logged and counted, the next one waits out the backoff under <action>#2, a committed one ends it', async () => {
    const failures: Intent[] = [];
    const warnings: unknown[] = [];
    const log = await newLog({
      retry: { baseMs: 400, maxMs: 1000 },
      onFailure: (i) => failures.push(i),
      log: { debug: () => undefined, info: () => undefined, error: () => undefined, warn: (m, f) => warnings.push(f) },
    });
    const action = 'retry/1';
    const tooMuch = [bankSend(lender.address, borrower.address, 10n ** 15n)]; // more than the key holds: fails in its block
    const affordable = [bankSend(lender.address, borrower.address, 5n)];
    const before = chain.balance(borrower.address);
    chain.startBlocks(100);
    try {
      const first = await log.performRetrying({ id: action, kind: 'test.send', messages: tooMuch });
      expect([first.id, first.status, first.attempt]).toEqual([action, 'failed', 1]);
      expect(failures.map((f) => f.id)).toEqual([action]);
      expect(warnings).toEqual([
        expect.objectContaining({ id: action, kind: 'test.send', outcome: 'failed', code: 5 }),
      ]);
      expect(JSON.stringify(warnings)).not.toMatch(/tx_bytes|insufficient/);
      // within the backoff: the failed attempt answers, nothing is signed
      const sequence = await sequenceOf(lender.address);
      expect((await log.performRetrying({ id: action, kind: 'test.send', messages: affordable })).id).toBe(action);
      expect(await sequenceOf(lender.address)).toBe(sequence);
      await new Promise((r) => setTimeout(r, 450));
      const second = await log.performRetrying({ id: action, kind: 'test.send', messages: affordable });
      expect([second.id, second.status, second.attempt]).toEqual([`${action}#2`, 'committed', 2]);
      const again = await log.performRetrying({ id: action, kind: 'test.send', messages: affordable });
      expect(again).toEqual(second);
    } finally {
      chain.stopBlocks();
    }
    expect(chain.balance(borrower.address) - before).toBe(5n);
  });

  test('gas from simulation: a 40-message batch gets enough; an out-of-gas attempt is retried with twice the gas', async () => {
    const settings = { adjustment: 1.3, base: 100_000n, perMessage: 40_000n, max: 2_000_000n };
    const batch = Array.from({ length: 40 }, (_, i) => bankSend(lender.address, borrower.address, BigInt(i + 1)));
    const before = chain.balance(borrower.address);
    chain.startBlocks(100);
    try {
      const log = await newLog({
        signer: new ChainSigner(client, lender.wallet, lender.address, { fee: TEST_FEE, gas: settings, pollMs: 20 }),
      });
      const done = await log.perform({ id: 'gas/batch', kind: 'test.batch', messages: batch });
      expect(done.status).toBe('committed');
      expect(done.gas!).toBeLessThan(settings.max);
      expect(done.gas!).toBeGreaterThan(settings.base + 40n * 10_000n); // the devnet's own per-message cost, and more

      // a too-small adjustment runs out of gas once; the next attempt asks for twice as much and passes
      const starved = await newLog({
        retry: { baseMs: 10, maxMs: 10 },
        signer: new ChainSigner(client, lender.wallet, lender.address, {
          fee: TEST_FEE,
          gas: { ...settings, adjustment: 0.6 },
          pollMs: 20,
        }),
      });
      const request = {
        id: 'gas/starved',
        kind: 'test.send',
        messages: [bankSend(lender.address, borrower.address, 9n)],
      };
      const first = await starved.performRetrying(request);
      expect([first.status, first.codespace, first.code]).toEqual(['failed', 'sdk', 11]);
      await new Promise((r) => setTimeout(r, 20));
      const second = await starved.performRetrying(request);
      expect([second.id, second.status, second.gas]).toEqual(['gas/starved#2', 'committed', 2n * first.gas!]);
    } finally {
      chain.stopBlocks();
    }
    expect(chain.balance(borrower.address) - before).toBe((40n * 41n) / 2n + 9n);
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

  test('the tx index misses the committed tx: the restart settles it from the blocks and never signs again', async () => {
    const id = 'crash/index-miss';
    const amount = 3333n;
    const before = chain.balance(borrower.address);
    const sequenceBefore = await sequenceOf(lender.address);
    const crashed = await runActor(id, amount, 'after-broadcast');
    expect(crashed.signal).toBe('SIGKILL');
    const left = await row(id);
    chain.produceBlock();
    chain.produceBlock(); // the account's sequence is past the tx's: only the blocks can tell it landed
    expect(chain.balance(borrower.address) - before).toBe(amount);
    chain.chain.rpcFaults.missingTxs.add(left!.tx_hash!);
    expect(await client.findTx(left!.tx_hash!)).toBeNull();

    chain.startBlocks(100);
    try {
      const restarted = await runActor(id, amount);
      expect({ code: restarted.code, stderr: restarted.stderr }).toEqual({ code: 0, stderr: '' });
      expect([restarted.intent!.status, restarted.intent!.txHash, restarted.intent!.attempts]).toEqual([
        'committed',
        left!.tx_hash,
        1,
      ]);
    } finally {
      chain.stopBlocks();
      chain.chain.rpcFaults.missingTxs.clear();
    }
    expect(chain.balance(borrower.address) - before).toBe(amount);
    expect(await sequenceOf(lender.address)).toBe(sequenceBefore + 1n);
  }, 60_000);

  test('a process that lost its lock while paused signs nothing after it resumes; the standby acts, once', async () => {
    const id = 'crash/lost-lock';
    const amount = 4444n;
    const before = chain.balance(borrower.address);
    const sequenceBefore = await sequenceOf(lender.address);
    // the old actor stops (SIGSTOP) with the tx signed in memory, right before recording it
    const old = startActor(id, amount, 'pause-before-record');
    let standby: ReturnType<typeof startActor> | undefined;
    try {
      await waitStopped(old.child.pid!);
      expect((await row(id))!.status).toBe('pending');
      await terminateLockSession(lender.address);
      // the standby takes the lock (a new epoch), signs the same intent and pauses at the same point
      standby = startActor(id, amount, 'pause-before-record');
      await waitStopped(standby.child.pid!);
      // the old one resumes while the standby holds the lock: fenced out, nothing recorded or broadcast
      old.child.kill('SIGCONT');
      const oldRun = await Promise.race([old.done, new Promise<null>((r) => setTimeout(() => r(null), 8000))]);
      old.child.kill('SIGKILL'); // finally, whatever it was doing
      chain.produceBlock();
      chain.produceBlock();
      // on the chain: nothing for the action while the standby holds the lock
      expect(chain.balance(borrower.address) - before).toBe(0n);
      expect(await sequenceOf(lender.address)).toBe(sequenceBefore);
      expect((await row(id))!.status).toBe('pending');
      expect(oldRun?.stderr ?? '(still running)').toMatch(/FencedOut/);

      chain.startBlocks(100);
      standby.child.kill('SIGCONT');
      const run = await standby.done;
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      expect([run.intent!.status, run.intent!.attempts]).toEqual(['committed', 1]);
    } finally {
      chain.stopBlocks();
      for (const p of [old, standby])
        if (p && p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    }
    expect(chain.balance(borrower.address) - before).toBe(amount);
    expect(await sequenceOf(lender.address)).toBe(sequenceBefore + 1n);
  }, 90_000);
});
