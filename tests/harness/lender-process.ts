/**
 * The app services as a separate process acting for the lender, for the lender's crash test:
 * it starts them on DATABASE_URL and CHAIN_RPC_URL with LENDER_KEY, prints "acting" once the
 * lender holds its key, and stops on SIGTERM. APP_FAILPOINT kills it (SIGKILL) at that point
 * of its first action.
 */
import { Pool } from 'pg';
import { AppServices } from '../../app-services';
import { APP_SERVICES_DEFAULTS } from '../../app-services/config';
import { KeySecret } from '../../app-services/keys';

const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: (m: string, f?: unknown) => process.stderr.write(`${m} ${JSON.stringify(f)}\n`) };

async function main(): Promise<void> {
  const env = process.env as Record<string, string>;
  const pool = new Pool({ connectionString: env.DATABASE_URL, max: 4 });
  const services = new AppServices({
    pool,
    databaseUrl: env.DATABASE_URL,
    settings: {
      ...APP_SERVICES_DEFAULTS,
      keys: { lender: new KeySecret(env.LENDER_KEY, 'LENDER_KEY') },
      inclusionTimeoutMs: 10_000,
      reconcileMs: 500,
      lockRetryMs: 200,
      lender: { ...APP_SERVICES_DEFAULTS.lender, pledgeWindowMs: Number(env.LENDER_PLEDGE_WINDOW_S) * 1000, pollMs: 250, claimEveryMs: 2000 },
    },
    hrp: 'svc',
    gasDenom: 'usvc',
    stableDenom: 'uusdc',
    indexerSchema: 'svc',
    chain: { rpcUrl: env.CHAIN_RPC_URL },
    log: quiet,
  });
  await services.start();
  while (services.actor('lender')?.state !== 'acting') await new Promise((r) => setTimeout(r, 50));
  process.stdout.write('acting\n');
  process.once('SIGTERM', () => {
    void services
      .stop()
      .then(() => pool.end())
      .then(() => process.exit(0));
  });
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
