/**
 * The app services' webhook deliverer in a process of its own, for bench/webhooks.ts: on
 * DATABASE_URL (the indexer's schema `svc`, the app schema `app`), every WEBHOOK_* setting at its
 * default but WEBHOOK_ALLOW_PRIVATE (the receiver is on loopback) and, when BENCH_WEBHOOK_PER_TARGET
 * is set, WEBHOOK_PER_TARGET; no chain and no keys. Prints
 * "delivering" once it holds the webhooks' actor lock; on SIGUSR2 one line `profile {…}` (where the
 * deliverer's time went since start, WebhookProfile); stopped with SIGTERM.
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
  const pool = new Pool({ connectionString: url, max: 5, options: '-c statement_timeout=10000' });
  pool.on('error', () => undefined);
  const services = new AppServices({
    pool,
    databaseUrl: url,
    settings: {
      ...APP_SERVICES_DEFAULTS,
      keys: {},
      webhooks: {
        ...APP_SERVICES_DEFAULTS.webhooks,
        allowPrivate: true,
        // bench:webhooks --per-target: how much the per-target connection bound (WEBHOOK_PER_TARGET) costs
        ...(process.env.BENCH_WEBHOOK_PER_TARGET && { perTarget: Number(process.env.BENCH_WEBHOOK_PER_TARGET) }),
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
  process.on('SIGUSR2', () => process.stdout.write(`profile ${JSON.stringify(services.webhookProfile ?? {})}\n`));
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
