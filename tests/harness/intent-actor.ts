/**
 * A separate acting process for the crash-safety tests: it takes the key's actor lock,
 * settles the intents left open (as a restarted service does), performs one bank send as
 * intent INTENT_ID and prints the intent as one JSON line. APP_FAILPOINT makes it die
 * (SIGKILL) at that point of the action.
 *
 *   DATABASE_URL APP_SCHEMA CHAIN_RPC_URL KEY_HEX INTENT_ID RECIPIENT AMOUNT
 */
import { Pool } from 'pg';
import { KeyActor } from '../../app-services/actor';
import { connectChain } from '../../app-services/chain/chain-client';
import { KeySecret, loadKey } from '../../app-services/keys';
import { migrate } from '../../app-services/store/migrations';
import { bankSend, TEST_FEE } from './app-chain';

const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

async function main(): Promise<void> {
  const env = process.env as Record<string, string>;
  const pool = new Pool({ connectionString: env.DATABASE_URL, max: 2 });
  await migrate(pool, env.APP_SCHEMA);
  const chain = await connectChain(env.CHAIN_RPC_URL);
  const { wallet, address } = await loadKey(new KeySecret(env.KEY_HEX, 'KEY_HEX'), 'svc');
  const actor = new KeyActor({
    role: 'lender',
    wallet,
    address,
    chain,
    pool,
    connection: { connectionString: env.DATABASE_URL },
    schema: env.APP_SCHEMA,
    fee: TEST_FEE,
    inclusionTimeoutMs: 20_000,
    reconcileMs: 60_000,
    lockRetryMs: 100,
    log: quiet,
  });
  actor.start();
  while (!actor.acting) await new Promise((r) => setTimeout(r, 20));
  const intent = await actor.intents.perform({
    id: env.INTENT_ID,
    kind: 'test.send',
    messages: [bankSend(address, env.RECIPIENT, BigInt(env.AMOUNT))],
  });
  // bigints (sequence, gas, epoch) as strings
  process.stdout.write(`${JSON.stringify(intent, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}\n`);
  await actor.stop();
  chain.disconnect();
  await pool.end();
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
