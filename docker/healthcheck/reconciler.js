/**
 * The reconciler's container health check (it serves no HTTP): what a pass needs answers — its
 * store (DB_* as the process reads them; DATABASE_URL when set) and the chain at CHAIN_RPC_URL.
 * Exit 0 healthy, 1 not; prints nothing but the failed part (no connection details).
 */
const { Client } = require('pg');

const TIMEOUT_MS = 4000;

async function storeAnswers() {
  const client = new Client(
    process.env.DATABASE_URL
      ? { connectionString: process.env.DATABASE_URL }
      : {
          host: process.env.DB_HOST,
          port: Number(process.env.DB_PORT || 5432),
          user: process.env.DB_USER,
          password: process.env.DB_PASS,
          database: process.env.DB_DATABASE,
        },
  );
  client.connectionTimeoutMillis = TIMEOUT_MS;
  await client.connect();
  try {
    await client.query('SELECT 1');
  } finally {
    await client.end();
  }
}

async function chainAnswers() {
  const r = await fetch(`${process.env.CHAIN_RPC_URL.replace(/\/+$/, '')}/status`, {
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (!r.ok) throw new Error(`status ${r.status}`);
}

Promise.all([
  storeAnswers().catch(() => Promise.reject(new Error('store unreachable'))),
  chainAnswers().catch(() => Promise.reject(new Error('chain unreachable'))),
]).then(
  () => process.exit(0),
  (e) => {
    process.stdout.write(`${e.message}\n`);
    process.exit(1);
  },
);
