/**
 * `npm start` (= `ts-node --transpile-only launcher/start.ts`): the whole product on one
 * machine, or on the database and chain that DATABASE_URL / CHAIN_RPC_URL name.
 * docs/running.md explains it; launcher.ts holds the parts and their order.
 *
 * The configuration is read first and alone, so a bad value stops the start within a
 * second, before the heavy modules (devnet, node launcher, REST app, GraphQL) are loaded.
 *
 * Exit codes: 0 after SIGINT/SIGTERM/SIGHUP, 1 when something fails, 2 for a bad
 * configuration or a DATA_DIR that does not match it.
 */
import { forgetKeyVariables } from '../app-services/keys';
import { isSvcError } from '../src/lib/errors';
import { loadLauncherConfig, type LauncherConfig } from '../src/runtime/config';
import { JournalConflict } from '../src/runtime/devnet-journal';
import { createLogger, type Logger } from '../src/runtime/logger';

export const EXIT_CODES = { failure: 1, config: 2 } as const;
/** Longest wait for a start still under way once a stop began (its late parts are stopped after). */
const LATE_START_WAIT_MS = 15_000;

function exitCodeOf(e: unknown): number {
  return isSvcError(e) || e instanceof JournalConflict ? EXIT_CODES.config : EXIT_CODES.failure;
}

/** The configuration; the key variables it read are then removed from the environment children inherit. */
function configOrExit(): LauncherConfig {
  try {
    const config = loadLauncherConfig(process.env, {
      stdoutIsTTY: Boolean(process.stdout.isTTY),
      cwd: process.cwd(),
      args: process.argv.slice(2),
    });
    forgetKeyVariables(process.env);
    return config;
  } catch (e) {
    process.stderr.write(
      `npm start: invalid configuration: ${e instanceof Error ? e.message : String(e)}\nSee docs/running.md for every variable and its default.\n`,
    );
    process.exit(EXIT_CODES.config);
  }
}

async function run(config: LauncherConfig, log: Logger): Promise<void> {
  const { Launcher, StartAborted } = await import('./launcher');
  const launcher = new Launcher(config, log);
  let exitCode = 0;
  let starting: Promise<void> = Promise.resolve();
  const shutdown = async (why: string) => {
    log.info(`stopping (${why})`);
    await launcher.stop();
    await Promise.race([starting.catch(() => undefined), new Promise((r) => setTimeout(r, LATE_START_WAIT_MS))]);
    await launcher.stopLateParts();
    log.info('stopped', { exit_code: exitCode });
    process.exit(exitCode);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (launcher.stopping) return log.info(`${signal} again: already stopping`);
    void shutdown(signal);
  };
  for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, onSignal);
  launcher.onFatal = (message) => {
    if (launcher.stopping) return;
    log.error(message);
    exitCode = EXIT_CODES.failure;
    void shutdown('failure');
  };
  starting = launcher.start();
  try {
    await starting;
  } catch (e) {
    if (e instanceof StartAborted || launcher.stopping) return;
    exitCode = exitCodeOf(e);
    log.error(`cannot start: ${e instanceof Error ? e.message : String(e)}`);
    if (exitCode === EXIT_CODES.failure && e instanceof Error && e.stack) log.debug(e.stack);
    await shutdown('start failed');
  }
}

export async function main(): Promise<void> {
  const config = configOrExit();
  const log = createLogger({ format: config.log.format, level: config.log.level });
  // the first line, before ts-node compiles the launcher's modules (seconds on a loaded machine)
  log.info(`starting: configuration read after ${process.uptime().toFixed(1)} s; loading the launcher`, {
    pid: process.pid,
    data_dir: config.dataDir,
  });
  await run(config, log);
}

if (require.main === module) void main();
