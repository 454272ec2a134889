/**
 * The app services delivering webhooks in a process of their own, for the crash test: on
 * DATABASE_URL (the indexer's schema `svc`, the app schema `app`), no chain and no keys; it
 * prints "delivering" once it holds the webhooks' actor lock, and is killed by the test.
 */
import { Pool } from 'pg';
import { AppServices } from '../../app-services';
import { APP_SERVICES_DEFAULTS } from '../../app-services/config';
import { StreamFeed } from '../../rest-adapter/stream/feed';

const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: (m: string, f?: unknown) => process.stderr.write(`${m} ${JSON.stringify(f)}\n`),
};

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL!;
  const pool = new Pool({ connectionString: url, max: 4 });
  const services = new AppServices({
    pool,
    databaseUrl: url,
    settings: {
      ...APP_SERVICES_DEFAULTS,
      keys: {},
      lockRetryMs: 200,
      webhooks: {
        ...APP_SERVICES_DEFAULTS.webhooks,
        allowPrivate: true,
        pollMs: 50,
        retryBaseMs: 100,
        timeoutMs: 2000,
      },
    },
    hrp: 'svc',
    gasDenom: 'usvc',
    stableDenom: 'uusdc',
    indexerSchema: 'svc',
    log: quiet,
    webhookFeed: new StreamFeed({ pool, schema: 'svc', hrp: 'svc', gasDenom: 'usvc' }),
  });
  await services.start();
  while (!services.deliveringWebhooks) await new Promise((r) => setTimeout(r, 50));
  process.stdout.write('delivering\n');
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
