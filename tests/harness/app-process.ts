/**
 * The app services as a separate process, for the crash tests: it starts them on
 * DATABASE_URL and CHAIN_RPC_URL acting with LENDER_KEY and/or DESK_KEY, serves /api on PORT
 * when given, prints "acting" once every key is held (and "listening <port>"), and stops on
 * SIGTERM. APP_FAILPOINT kills it (SIGKILL) at that point of its first action.
 */
import express from 'express';
import type { AddressInfo } from 'net';
import { Pool } from 'pg';
import { AppServices } from '../../app-services';
import { APP_SERVICES_DEFAULTS } from '../../app-services/config';
import { KeySecret } from '../../app-services/keys';

const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: (m: string, f?: unknown) => process.stderr.write(`${m} ${JSON.stringify(f)}\n`),
};

async function main(): Promise<void> {
  const env = process.env as Record<string, string | undefined>;
  const secret = (name: string) => (env[name] ? new KeySecret(env[name]!, name) : undefined);
  const pool = new Pool({ connectionString: env.DATABASE_URL, max: 4 });
  const services = new AppServices({
    pool,
    databaseUrl: env.DATABASE_URL!,
    settings: {
      ...APP_SERVICES_DEFAULTS,
      keys: { lender: secret('LENDER_KEY'), desk: secret('DESK_KEY') },
      inclusionTimeoutMs: 10_000,
      reconcileMs: 500,
      lockRetryMs: 200,
      lender: {
        ...APP_SERVICES_DEFAULTS.lender,
        pledgeWindowMs: Number(env.LENDER_PLEDGE_WINDOW_S ?? 120) * 1000,
        pollMs: 250,
        claimEveryMs: 2000,
      },
      desk: { ...APP_SERVICES_DEFAULTS.desk, pollMs: 250, quoteCacheMs: 0, rfqLimit: 100 },
      // the tests' pools are seconds old: a window and an age of 5 blocks (300 ms each)
      market: { ...APP_SERVICES_DEFAULTS.market, windowBlocks: 5, minPoolAgeBlocks: 5, minPoolReserve: 1_000_000n },
      risk: {
        ...APP_SERVICES_DEFAULTS.risk,
        lossCooloffMs: Number(env.RISK_LOSS_COOLOFF_S ?? APP_SERVICES_DEFAULTS.risk.lossCooloffMs / 1000) * 1000,
      },
    },
    hrp: 'svc',
    gasDenom: 'usvc',
    stableDenom: 'uusdc',
    indexerSchema: 'svc',
    chain: { rpcUrl: env.CHAIN_RPC_URL! },
    log: quiet,
  });
  // SIGTERM may come at any point, even before the services act (a test that has seen what it
  // waited for stops the process at once): it is honoured once start() has returned.
  let started = false;
  let terminating = false;
  const stop = () =>
    void services
      .stop()
      .then(() => pool.end())
      .then(() => process.exit(0));
  process.once('SIGTERM', () => {
    terminating = true;
    if (started) stop();
  });
  await services.start();
  started = true;
  if (terminating) return stop();
  const roles = ['lender', 'desk'].filter((r) => services.actor(r));
  while (!terminating && !roles.every((r) => services.actor(r)!.state === 'acting'))
    await new Promise((r) => setTimeout(r, 50));
  if (terminating) return;
  process.stdout.write('acting\n');
  if (env.PORT) {
    const server = express()
      .use('/api', services.router)
      .listen(Number(env.PORT), '127.0.0.1', () =>
        process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`),
      );
  }
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
