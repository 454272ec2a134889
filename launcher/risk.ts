/**
 * `npm run risk`: the losses the lender and the desk have charged against their caps, and
 * their reset by an operator (docs/app-services.md, "Risk"). A loss keeps the room it used and
 * starts a cool-off of its asset and issuer until it is reset here.
 *
 *   npm run risk -- losses
 *   npm run risk -- reset (--asset <id> | --issuer <address> | --id <n> | --all) --note "<why>"
 *
 * The store is DATABASE_URL, or the embedded PostgreSQL of a running `npm start` in DATA_DIR
 * (default .data); APP_SCHEMA and DB_SCHEMA as the services use them.
 */
import path from 'path';
import { parseArgs } from 'util';
import { Pool } from 'pg';
import { RiskRepository, type LossFilter } from '../app-services/risk/repository';
import { runningEmbeddedDatabase } from '../src/runtime/postgres/running';

const say = (line: string) => process.stdout.write(`${line}\n`);

class UsageError extends Error {}

function databaseUrl(): string {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const dataDir = path.resolve(process.env.DATA_DIR ?? '.data');
  const running = runningEmbeddedDatabase(dataDir);
  if (!running) throw new UsageError(`no DATABASE_URL, and no npm start running on ${dataDir} (DATA_DIR)`);
  return running.url;
}

function filterOf(v: { asset?: string; issuer?: string; id?: string; all?: boolean }): LossFilter {
  const named = [v.asset, v.issuer, v.id].filter((x) => x !== undefined).length;
  if (named + (v.all ? 1 : 0) !== 1)
    throw new UsageError('reset needs exactly one of --asset, --issuer, --id or --all');
  if (v.id !== undefined && !/^[1-9][0-9]{0,18}$/.test(v.id)) throw new UsageError('--id must be a loss id');
  return { assetId: v.asset, issuer: v.issuer, id: v.id };
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      asset: { type: 'string' },
      issuer: { type: 'string' },
      id: { type: 'string' },
      all: { type: 'boolean' },
      note: { type: 'string' },
    },
  });
  const command = positionals[0];
  if (command !== 'losses' && command !== 'reset') throw new UsageError('usage: npm run risk -- losses | reset …');
  const filter = command === 'reset' ? filterOf(values) : undefined;
  if (command === 'reset' && !values.note) throw new UsageError('reset needs --note "<why>": it is kept with the loss');
  const pool = new Pool({ connectionString: databaseUrl(), max: 1 });
  try {
    const risk = new RiskRepository(pool, process.env.APP_SCHEMA ?? 'app', process.env.DB_SCHEMA ?? 'svc');
    if (filter) {
      say(`reset ${await risk.reset(filter, values.note!)} charged loss(es)`);
      return;
    }
    const losses = await risk.charged();
    if (!losses.length) say('no loss is charged');
    for (const l of losses)
      say(
        `#${l.id} ${l.source} ${l.amount} on asset ${l.asset_id} (issuer ${l.issuer}${l.borrower ? `, borrower ${l.borrower}` : ''}) at height ${l.height}, ${l.created_at.toISOString()}: ${l.ref}`,
      );
  } finally {
    await pool.end();
  }
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(e instanceof UsageError ? 2 : 1);
});
