/**
 * The devnet command line (`npm run devnet -- ...`): generates a seeded
 * history, serves it over CometBFT RPC and, with --live, keeps producing
 * blocks. Progress is printed as JSON lines on stdout; a bad argument exits
 * with code 2 and the usage on stderr. SIGINT/SIGTERM close the server.
 *
 * Also exports startDevnet(options) for tests, `npm start` and benchmarks.
 */
import { OLD_CHAIN_VERSION } from './scenario';
import { startDevnet, DEFAULT_LIVE_BLOCK_MS, type Devnet, type DevnetOptions } from './scenario/start';

export { startDevnet };
export type { Devnet, DevnetOptions };

export const USAGE = `usage: npm run devnet -- --seed S --blocks N [options]

  --seed S                  scenario seed (any text); the same seed gives the same chain
  --blocks N                blocks of history to generate first (0 or more)
  --txs-per-block N         target txs per block (default 10; 0 = empty blocks)
  --port P                  RPC port (default 26657; 0 = a free port)
  --host H                  RPC host (default 127.0.0.1)
  --live                    after the history, produce a block every --block-ms with scenario traffic
  --block-ms MS             live block interval (default ${DEFAULT_LIVE_BLOCK_MS}; only with --live)
  --services-mode           only with --live: the lender and desk keys are the app services'; the
                            scenario never signs as them (see devnet/README.md, "Services mode")
  --old-chain               answer as chain ${OLD_CHAIN_VERSION} (no token-registry query, no RIGHT_OUT)
  --cosmos-evm-events       report EVM outcomes only as Cosmos EVM chains do (the ethereum_tx event
                            and MsgEthereumTxResponse), without svc.evm.v1.EventEthereumTxExecuted
  --start-time ISO          time of block 1, e.g. 2026-01-01T00:00:00Z (default: that date; with
                            --live, so that the history ends now)
  --block-interval-ms MS    history block interval (default: the history spans about 14 days)
  --holders N               holder accounts of the scenario (default 12)
  --skip-signature-verification
                            benchmarks only: CheckTx skips the secp256k1 check (txs are still
                            signed); never expose such a devnet
  --help                    this text`;

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

const DEFAULT_PORT = 26657;
const VALUE_FLAGS = [
  'seed',
  'blocks',
  'txs-per-block',
  'port',
  'host',
  'block-ms',
  'start-time',
  'block-interval-ms',
  'holders',
] as const;
const SWITCHES = [
  'live',
  'services-mode',
  'old-chain',
  'cosmos-evm-events',
  'skip-signature-verification',
  'help',
] as const;
type ValueFlag = (typeof VALUE_FLAGS)[number];
type Switch = (typeof SWITCHES)[number];

export interface CliOptions extends DevnetOptions {
  port: number;
  host: string;
  help: boolean;
}

/** Splits argv into flag values and switches; rejects unknown, repeated or valueless flags. */
function readFlags(argv: readonly string[]): { values: Map<ValueFlag, string>; switches: Set<Switch> } {
  const values = new Map<ValueFlag, string>();
  const switches = new Set<Switch>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!m) throw new UsageError(`unexpected argument ${JSON.stringify(arg)}`);
    const [, name, inline] = m;
    if ((SWITCHES as readonly string[]).includes(name)) {
      if (inline !== undefined) throw new UsageError(`--${name} takes no value`);
      if (switches.has(name as Switch)) throw new UsageError(`--${name} given twice`);
      switches.add(name as Switch);
      continue;
    }
    if (!(VALUE_FLAGS as readonly string[]).includes(name)) throw new UsageError(`unknown option --${name}`);
    if (values.has(name as ValueFlag)) throw new UsageError(`--${name} given twice`);
    const value = inline ?? argv[++i];
    if (value === undefined || (inline === undefined && value.startsWith('--')))
      throw new UsageError(`--${name} needs a value`);
    values.set(name as ValueFlag, value);
  }
  return { values, switches };
}

function integer(values: Map<ValueFlag, string>, name: ValueFlag, min: number, max: number): number | undefined {
  const raw = values.get(name);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;

function startTime(values: Map<ValueFlag, string>): number | undefined {
  const raw = values.get('start-time');
  if (raw === undefined) return undefined;
  const ms = RFC3339_UTC.test(raw) ? Date.parse(raw) : NaN;
  if (!Number.isFinite(ms) || ms <= 0)
    throw new UsageError(`--start-time must be a UTC time like 2026-01-01T00:00:00Z, got ${JSON.stringify(raw)}`);
  return ms;
}

/** Parses and validates the command line (throws UsageError). */
export function parseArgs(argv: readonly string[]): CliOptions {
  const { values, switches } = readFlags(argv);
  const help = switches.has('help');
  const seed = values.get('seed');
  const blocks = integer(values, 'blocks', 0, 10_000_000);
  if (!help && (seed === undefined || seed === '')) throw new UsageError('--seed is required');
  if (!help && blocks === undefined) throw new UsageError('--blocks is required');
  const live = switches.has('live');
  if (values.has('block-ms') && !live) throw new UsageError('--block-ms only applies with --live');
  if (switches.has('services-mode') && !live) throw new UsageError('--services-mode only applies with --live');
  const host = values.get('host') ?? '127.0.0.1';
  if (host === '') throw new UsageError('--host must not be empty');
  return {
    seed: seed ?? '',
    blocks: blocks ?? 0,
    txsPerBlock: integer(values, 'txs-per-block', 0, 1000) ?? 10,
    port: integer(values, 'port', 0, 65535) ?? DEFAULT_PORT,
    host,
    live,
    blockMs: integer(values, 'block-ms', 50, 3_600_000),
    servicesMode: switches.has('services-mode'),
    oldChain: switches.has('old-chain'),
    evmOutcomeEvent: !switches.has('cosmos-evm-events'),
    startTimeMs: startTime(values),
    blockIntervalMs: integer(values, 'block-interval-ms', 10, 86_400_000),
    holders: integer(values, 'holders', 6, 200),
    skipSignatureVerification: switches.has('skip-signature-verification'),
    help,
  };
}

const print = (line: Record<string, unknown>) => process.stdout.write(JSON.stringify(line) + '\n');

/** Runs the CLI; resolves with an exit code once the devnet is closed (or at once on an error). */
export async function main(argv: readonly string[]): Promise<number> {
  let options: CliOptions;
  try {
    options = parseArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`devnet: ${e.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  print({
    event: 'generating',
    seed: options.seed,
    blocks: options.blocks,
    txs_per_block: options.txsPerBlock,
    old_chain: options.oldChain,
    skip_signature_verification: options.skipSignatureVerification,
  });
  const progressEvery = Math.max(100, Math.ceil(options.blocks / 20));
  const devnet = await startDevnet({
    ...options,
    log: print,
    onBlock: (height, ms) =>
      height % progressEvery === 0 &&
      height < options.blocks &&
      print({ event: 'progress', height, ms: Math.round(ms) }),
  });
  const { elapsedMs, txs, blocks } = devnet.generation;
  const seconds = elapsedMs / 1000;
  print({
    event: 'generated',
    height: devnet.chain.height,
    txs,
    ms: Math.round(elapsedMs),
    blocks_per_s: seconds > 0 ? Math.round(blocks / seconds) : null,
    txs_per_s: seconds > 0 ? Math.round(txs / seconds) : null,
    first_block_time: devnet.summary.firstBlockTime,
    last_block_time: devnet.summary.lastBlockTime,
    failed_txs: devnet.summary.txs.failed,
  });
  print({
    event: 'listening',
    url: devnet.url,
    height: devnet.chain.height,
    chain_id: devnet.chain.chainId,
    version: devnet.app.version,
    live: options.live ?? false,
  });
  return new Promise((resolve) => {
    const shutdown = (signal: string) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      void devnet.close().then(() => {
        print({ event: 'closed', signal, height: devnet.chain.height });
        resolve(0);
      });
    };
    const onInt = () => shutdown('SIGINT');
    const onTerm = () => shutdown('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
  });
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => {
      process.stderr.write(`devnet: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    },
  );
}
