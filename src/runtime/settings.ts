/**
 * npm start's own settings as one table (src/lib/settings.ts): each variable, its default, its
 * bounds and what it does as docs/running.md's table says it. src/runtime/config.ts reads them from
 * here; the app services', the reconciler's, the /v1 caches' and the fair-share tables sit beside it
 * in their parts (tests/unit/runtime/settings-docs.test.ts keeps docs/running.md in step with all).
 */
import { choice, flag, integer, special } from '../lib/settings';

/** The reconciler checks the indexer's last processed height, a few blocks behind in live mode; 1,000 heights is ~17 minutes at 1 s. */
export const DEFAULT_STATE_WINDOW = 1000;
/** At most 500 blocks to replay on a restart (under 30 s at the replay's 16–33 blocks/s). */
export const DEFAULT_SNAPSHOT_BLOCKS = 500;

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export const LOG_FORMATS = ['json', 'pretty'] as const;

export const START_SETTINGS = {
  port: integer('PORT', 3000, 0, 65535, 'HTTP port (`0`: any free port, printed)'),
  host: special(
    'HOST',
    '127.0.0.1',
    '127.0.0.1',
    '`127.0.0.1`',
    'HTTP listen address (`0.0.0.0` to listen on every interface)',
  ),
  dataDir: special(
    'DATA_DIR',
    '.data',
    '.data',
    '`.data`',
    'embedded PostgreSQL (`postgres/`), devnet journal (`devnet/`), generated project copy (`project/`); git-ignored',
  ),
  databaseUrl: special(
    'DATABASE_URL',
    undefined,
    '(embedded PostgreSQL in DATA_DIR/postgres)',
    'embedded PostgreSQL',
    '`postgres://user:password@host:5432/database`: use this server instead',
  ),
  schema: special(
    'DB_SCHEMA',
    'svc',
    'svc',
    '`svc`',
    'PostgreSQL schema the node writes (`--db-schema`) and the API reads; on the embedded store a reindex after a project change serves from `<DB_SCHEMA>_<8 hex>` ([After a project change](#after-a-project-change))',
  ),
  projectDir: special(
    'PROJECT_DIR',
    undefined,
    '(this repository)',
    'this repository',
    "a built SubQuery project (`project.yaml`, `schema.graphql`, `dist/index.js`) to index with instead of this repository's; npm start does not build it",
  ),
  chainRpcUrl: special(
    'CHAIN_RPC_URL',
    undefined,
    '(embedded devnet)',
    'embedded devnet',
    'CometBFT RPC of the chain to index, e.g. `http://host:26657`',
  ),
  chainId: special(
    'CHAIN_ID',
    undefined,
    '(reported by CHAIN_RPC_URL)',
    'what `CHAIN_RPC_URL` reports',
    "must equal the chain's `node_info.network`; checked at start. When it differs from `project.yaml`'s `svc-devnet-1`, the node runs from a project copy in `DATA_DIR/project` with that chain id and endpoint (the node requires the manifest's chainId to be the chain's)",
  ),
  devnet: {
    seed: special(
      'DEVNET_SEED',
      'svc-devnet',
      'svc-devnet',
      '`svc-devnet`',
      'scenario seed; the same seed gives the same chain',
    ),
    historyBlocks: integer(
      'DEVNET_HISTORY_BLOCKS',
      200,
      0,
      100_000,
      'blocks of history generated before going live (spanning about 14 days, ending now)',
    ),
    blockMs: integer('DEVNET_BLOCK_MS', 1000, 50, 3_600_000, 'live block interval in ms'),
    txsPerBlock: integer('DEVNET_TXS_PER_BLOCK', 10, 0, 1000, 'target txs per block, history and live'),
    port: integer('DEVNET_PORT', 26657, 0, 65535, 'devnet RPC port (`0`: any free port)'),
    stateWindow: integer(
      'DEVNET_STATE_WINDOW',
      DEFAULT_STATE_WINDOW,
      0,
      100_000_000,
      "heights of state the devnet keeps for `abci_query` (the latest and the 999 before it); older heights answer a pruned node's error. `0`: every height (memory grows with the chain)",
    ),
    snapshotBlocks: integer(
      'DEVNET_SNAPSHOT_BLOCKS',
      DEFAULT_SNAPSHOT_BLOCKS,
      0,
      100_000_000,
      'a devnet snapshot every this many blocks (and at a clean stop), so a restart replays at most that many journaled blocks; `0`: no snapshots, a restart replays everything from genesis',
    ),
  },
  readyMaxLagBlocks: integer(
    'READY_MAX_LAG_BLOCKS',
    10,
    0,
    1_000_000,
    '`/ready` is 503 when the index is more blocks behind the chain',
  ),
  progressIntervalMs: integer(
    'PROGRESS_INTERVAL_MS',
    5000,
    500,
    600_000,
    'how often progress is printed while catching up',
  ),
  log: {
    format: special(
      'LOG_FORMAT',
      undefined,
      'pretty on a terminal, json otherwise',
      '`pretty` on a terminal, `json` otherwise',
      '`json`: one JSON object per line; `pretty`: aligned, coloured lines',
    ),
    level: choice(
      'LOG_LEVEL',
      'info',
      LOG_LEVELS,
      "`debug`, `info`, `warn`, `error`; `debug` adds every request and the node's and PostgreSQL's own lines",
    ),
  },
  node: {
    batchSize: integer(
      'NODE_BATCH_SIZE',
      100,
      1,
      1000,
      `the node's \`--batch-size\` (100 measured fastest on 2 cores; at 20 the node paces itself to 60 blocks/s: docs/indexer.md, "Throughput")`,
    ),
    workers: integer(
      'NODE_WORKERS',
      0,
      0,
      64,
      `the node's \`--workers\` while it catches up (0: none; 1 catches up ~10 % slower on 2 cores, docs/indexer.md "Freshness at the head")`,
    ),
    headWorkers: integer(
      'NODE_HEAD_WORKERS',
      1,
      0,
      64,
      `the node's \`--workers\` at the head (1 takes the fetch loop's 0–1 s sleep off each block: index lag p50 ~1.0 s at 1 s blocks); \`0\`: as \`NODE_WORKERS\`, no restart (docs/indexer.md "Freshness at the head")`,
    ),
    catchUpBlocks: integer(
      'NODE_CATCH_UP_BLOCKS',
      5000,
      1,
      1_000_000_000,
      `a node further behind the chain's tip than this when npm start starts it catches up with \`NODE_WORKERS\` and is restarted once with \`NODE_HEAD_WORKERS\` when within 100 blocks (before \`/ready\`; the API serves the committed index meanwhile); nearer, it starts with \`NODE_HEAD_WORKERS\` (a restart costs ~10 s, more than the head's flags cost a catch-up this short)`,
    ),
  },
  graphql: {
    subscriptions: flag(
      'GRAPHQL_SUBSCRIPTIONS',
      true,
      "`true`: the node runs with `--subscription` (a NOTIFY trigger on every entity table) and `/graphql` serves subscriptions over a websocket ([GraphQL](#graphql)); `false`: neither. The triggers cost PostgreSQL about 1 ms of CPU per block while the node catches up, about 4 % of the indexer's rate (more on a busy machine: [docs/benchmarks/graphql-subscriptions-2026-11-27.md](benchmarks/graphql-subscriptions-2026-11-27.md)); set `false` before a long catch-up when nobody subscribes",
    ),
    maxWebsockets: integer(
      'GRAPHQL_WS_MAX_CONNECTIONS',
      500,
      1,
      100_000,
      'websockets open at once on `/graphql`; one more is answered `429`',
    ),
    maxDepth: integer(
      'GRAPHQL_MAX_DEPTH',
      10,
      2,
      100,
      "nested selections a GraphQL query may have (introspection's own fields not counted); deeper: 400 `QUERY_TOO_DEEP` ([GraphQL limits](#graphql-limits))",
    ),
    maxCost: integer(
      'GRAPHQL_MAX_COST',
      10_000,
      100,
      10_000_000,
      "rows a GraphQL query may ask for (each connection's page size times what its rows select); more: 400 `QUERY_TOO_COSTLY`",
    ),
    statementTimeoutMs: integer(
      'GRAPHQL_STATEMENT_TIMEOUT_MS',
      10_000,
      100,
      3_600_000,
      '`statement_timeout` of every GraphQL connection',
    ),
    allowlistFile: special(
      'GRAPHQL_ALLOWLIST_FILE',
      undefined,
      '(none: any query within the limits)',
      'none: any query within the limits',
      'a JSON array (or object) of GraphQL documents: only these run, named by their SHA-256 (`extensions.persistedQuery.sha256Hash` or `id`) or sent as their exact text; others: 400 `OPERATION_NOT_ALLOWED`',
    ),
  },
} as const;
