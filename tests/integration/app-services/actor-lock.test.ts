/**
 * One actor per key on real PostgreSQL: of two processes' actors for one key, one acts and
 * the other stands by; when the first stops (or its lock connection dies), the second takes
 * over and settles what the first left open.
 */
import { Client } from 'pg';
import { KeyActor } from '../../../app-services/actor';
import { ActorLock, lockKey } from '../../../app-services/actor-lock';
import { connectChain, type ChainClient } from '../../../app-services/chain/chain-client';
import { migrate } from '../../../app-services/store/migrations';
import { startTestChain, TEST_FEE, testKey, type TestChain, type TestKey } from '../../harness/app-chain';
import { createTestSchema } from '../../harness/db';
import { until as waitFor } from '../../harness/until';
import type { TestSchema } from '../../harness/postgres';

let db: TestSchema;
let chain: TestChain;
let client: ChainClient;
let desk: TestKey;

const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

beforeAll(async () => {
  db = await createTestSchema('actorlock');
  await migrate(db.pool, db.schema);
  desk = await testKey('lock-desk');
  chain = await startTestChain([desk.address]);
  client = await connectChain(chain.rpcUrl);
});

afterAll(async () => {
  client.disconnect();
  await chain.close();
  await db.drop();
});

function actor(lockRetryMs = 50): KeyActor {
  return new KeyActor({
    role: 'desk',
    wallet: desk.wallet,
    address: desk.address,
    chain: client,
    pool: db.pool,
    connection: { connectionString: db.url },
    schema: db.schema,
    fee: TEST_FEE,
    inclusionTimeoutMs: 2000,
    reconcileMs: 200,
    lockRetryMs,
    log: quiet,
  });
}

const until = (what: string, check: () => boolean, ms = 5000) =>
  waitFor(what, () => (check() ? true : undefined), { ms, everyMs: 20 });

test('lock keys differ per address and are stable', () => {
  expect(lockKey(desk.address)).toBe(lockKey(desk.address));
  expect(lockKey(desk.address)).not.toBe(lockKey(`${desk.address}x`));
});

test('two actors of one key: one acts, the other stands by and takes over when the first stops', async () => {
  const first = actor();
  const second = actor();
  first.start();
  await until('the first to act', () => first.acting);
  second.start();
  await new Promise((r) => setTimeout(r, 300)); // several retries of the second
  expect([first.state, second.state]).toEqual(['acting', 'standby']);
  await first.stop();
  await until('the second to act', () => second.acting);
  expect(first.state).toBe('stopped');
  await second.stop();
});

async function terminateLockSession(): Promise<void> {
  // what an administrator or a network cut does to the session holding the lock
  const admin = new Client({ connectionString: db.url });
  await admin.connect();
  await admin.query(
    `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND objid = ($1::bigint & 4294967295)::oid AND granted`,
    [lockKey(desk.address).toString()],
  );
  await admin.end();
}

test('a lock whose connection dies is lost: onLost fires and the lock is taken again later, under a higher epoch', async () => {
  const events: string[] = [];
  const epochs: bigint[] = [];
  const lock = new ActorLock({
    connection: { connectionString: db.url },
    address: desk.address,
    schema: db.schema,
    retryMs: 50,
    onAcquired: (epoch) => {
      events.push('acquired');
      epochs.push(epoch);
    },
    onLost: () => events.push('lost'),
  });
  lock.start();
  await until('the lock', () => lock.state === 'held');
  await terminateLockSession();
  await until('the lock again', () => events.length === 3);
  expect(events).toEqual(['acquired', 'lost', 'acquired']);
  expect(epochs[1]).toBe(epochs[0] + 1n);
  const { rows } = await db.pool.query(`SELECT epoch FROM ${db.schema}.actor_epochs WHERE address = $1`, [
    desk.address,
  ]);
  expect(BigInt(rows[0].epoch)).toBe(epochs[1]);
  await lock.stop();
});

test('an actor whose lock dies stops acting, and a standby actor of the key takes over', async () => {
  const first = actor(60_000); // after the loss it waits long before trying again
  first.start();
  await until('the first to act', () => first.acting);
  const second = actor();
  second.start();
  await terminateLockSession();
  await until('the second to act', () => second.acting);
  expect(first.state).toBe('standby');
  await Promise.all([first.stop(), second.stop()]);
});
