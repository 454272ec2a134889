/**
 * The app services' own schema (default `app`), versioned: each migration runs once, in
 * order, in one transaction with its row in `schema_migrations`. Start-up applies what is
 * missing under a transaction-scoped advisory lock, so two processes starting together
 * never apply one twice. The indexer's schema is never written here.
 *
 * A migration, once released, is never edited: a change is a new version at the end.
 */
import type { Pool, PoolClient } from 'pg';
import { quoteIdent, withTransaction } from '../../src/store';

export interface Migration {
  version: number;
  name: string;
  /** SQL with `{schema}` standing for the quoted schema name */
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'intent log',
    sql: `
      -- One row per chain action a service takes: written before the tx is broadcast
      -- (status pending, then signed with the exact bytes), settled from the chain after.
      CREATE TABLE {schema}.intents (
        id          text PRIMARY KEY,             -- deterministic: the action's identity, e.g. lender/principal/<loan>
        actor       text NOT NULL,                -- bech32 address of the signing key
        kind        text NOT NULL,                -- what the action is, for people and metrics
        messages    jsonb NOT NULL,               -- [{typeUrl, value}] as signed (proto-JSON values)
        memo        text NOT NULL DEFAULT '',
        status      text NOT NULL CHECK (status IN ('pending', 'signed', 'committed', 'failed', 'rejected')),
        sequence    numeric,                      -- of the signed tx
        tx_hash     text,                         -- upper-case hex consensus hash of tx_bytes
        tx_bytes    bytea,
        attempts    integer NOT NULL DEFAULT 0,   -- times signed (a new signature only once the last one provably can never be included)
        height      bigint,
        code        integer,
        codespace   text,
        log         text,
        created_at  timestamptz NOT NULL DEFAULT now(),
        updated_at  timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX intents_open ON {schema}.intents (actor, sequence) WHERE status IN ('pending', 'signed');
      CREATE INDEX intents_kind_created ON {schema}.intents (kind, created_at);
    `,
  },
  {
    version: 2,
    name: 'launchpad documents',
    sql: `
      CREATE TABLE {schema}.launchpad_documents (
        meta_hash   char(64) PRIMARY KEY,         -- lower-case hex SHA-256 of canonical
        canonical   bytea NOT NULL,               -- the canonical document bytes (docs/app-services.md)
        source      text NOT NULL CHECK (source IN ('api', 'devnet')),
        created_at  timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    version: 3,
    name: 'lender loans',
    sql: `
      -- A loan from its complete pledge set on; its chain actions are intents
      -- (lender/principal/<id>, lender/repay/<id>/<settlement>, lender/liquidate/<id>).
      CREATE TABLE {schema}.loans (
        id                text PRIMARY KEY,          -- L<lowest pledge id>
        borrower          text NOT NULL,
        asset_id          text NOT NULL,
        units             numeric NOT NULL,          -- of every kind
        principal         numeric NOT NULL,
        status            text NOT NULL CHECK (status IN ('opening', 'active', 'repaid', 'liquidated', 'cancelled')),
        open_tx           text,
        close_tx          text,
        repay_settlement  bigint,                    -- the settlement being accepted, while it is
        created_at        timestamptz NOT NULL DEFAULT now(),
        updated_at        timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX loans_borrower ON {schema}.loans (borrower, created_at DESC);
      CREATE INDEX loans_open ON {schema}.loans (status) WHERE status IN ('opening', 'active');
      -- each pledge belongs to at most one loan (the primary key says so)
      CREATE TABLE {schema}.loan_pledges (
        encumbrance_id  bigint PRIMARY KEY,
        loan_id         text NOT NULL REFERENCES {schema}.loans (id),
        kind_id         integer NOT NULL
      );
      CREATE INDEX loan_pledges_loan ON {schema}.loan_pledges (loan_id);
      -- pledges to the lender that open no loan; each is released (intent lender/release/<id>)
      CREATE TABLE {schema}.pledge_refusals (
        encumbrance_id  bigint PRIMARY KEY,
        reason          text NOT NULL,
        created_at      timestamptz NOT NULL DEFAULT now()
      );
      -- income the lender claimed, per pledge, from the EventClaimed entries of its claim txs
      CREATE TABLE {schema}.loan_income (
        claim_tx        text NOT NULL,
        encumbrance_id  bigint NOT NULL,
        amount          numeric NOT NULL,
        PRIMARY KEY (claim_tx, encumbrance_id)
      );
      CREATE TABLE {schema}.income_claims (
        claim_tx        text PRIMARY KEY,            -- claim txs whose entries are in loan_income
        recorded_at     timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    version: 4,
    name: 'desk rfqs',
    sql: `
      -- One row per RFQ, written before the desk proposes (intent desk/rfq/<id>), with every
      -- term fixed, so a restart proposes exactly what was quoted, once.
      CREATE TABLE {schema}.rfqs (
        id              text PRIMARY KEY,            -- R + 32 hex: from the Idempotency-Key, or random
        requester       text NOT NULL,
        asset_id        text NOT NULL,
        symbol          text NOT NULL,
        kind_id         integer NOT NULL,            -- -1: a whole share
        side            text NOT NULL CHECK (side IN ('sell', 'buy')),
        units           numeric NOT NULL,
        price           numeric NOT NULL,
        amount          numeric NOT NULL,
        expiry          timestamptz NOT NULL,
        status          text NOT NULL CHECK (status IN ('pending', 'proposed', 'failed')),
        settlement_id   bigint,
        error           text,
        created_at      timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX rfqs_requester ON {schema}.rfqs (requester, created_at);
      CREATE INDEX rfqs_pending ON {schema}.rfqs (created_at) WHERE status = 'pending';
    `,
  },
  {
    version: 5,
    name: 'actor epochs, intent fencing, attempts and gas',
    sql: `
      -- Bumped (durably) each time a process takes a key's actor lock: an intent's signed
      -- bytes are recorded only while the row still holds the signer's epoch (fencing).
      CREATE TABLE {schema}.actor_epochs (
        address  text PRIMARY KEY,
        epoch    bigint NOT NULL
      );
      ALTER TABLE {schema}.intents
        ADD COLUMN epoch             bigint,   -- of the actor that recorded the signed bytes
        ADD COLUMN broadcast_height  bigint,   -- chain height read just before the broadcast: the block scan starts there
        ADD COLUMN gas               numeric,  -- gas limit of the signed tx
        ADD COLUMN min_gas           numeric,  -- floor for the gas limit (an out-of-gas retry doubles the last one)
        ADD COLUMN action            text,     -- performRetrying: the action this intent is an attempt of
        ADD COLUMN attempt           integer;  -- 1 for <action>, n for <action>#n
      CREATE INDEX intents_action ON {schema}.intents (action, attempt) WHERE action IS NOT NULL;
    `,
  },
  {
    version: 6,
    name: 'lender: refused pledge sets released in batches',
    sql: `
      -- the set a refused pledge was refused with (its lowest pledge id: a set is released whole,
      -- in one tx) and the release intent that carries it (NULL: not released yet)
      ALTER TABLE {schema}.pledge_refusals ADD COLUMN refusal_set bigint, ADD COLUMN release_intent text;
      UPDATE {schema}.pledge_refusals SET refusal_set = encumbrance_id;
      ALTER TABLE {schema}.pledge_refusals ALTER COLUMN refusal_set SET NOT NULL;
      -- refusals released one by one before: their intents were lender/release/<pledge>
      UPDATE {schema}.pledge_refusals r SET release_intent = i.id
        FROM {schema}.intents i WHERE i.id = 'lender/release/' || r.encumbrance_id;
      CREATE INDEX pledge_refusals_unreleased ON {schema}.pledge_refusals (refusal_set) WHERE release_intent IS NULL;
    `,
  },
  {
    version: 7,
    name: 'desk rfq client address',
    sql: `
      -- The HTTP client's address (req.ip) of each RFQ, for the per-client limit counted
      -- across replicas; null for rows recorded before it was kept.
      ALTER TABLE {schema}.rfqs ADD COLUMN client_ip text;
      CREATE INDEX rfqs_client_ip ON {schema}.rfqs (client_ip, created_at);
      -- the escrows the desk still holds for RFQs: pending or proposed, not yet expired
      CREATE INDEX rfqs_outstanding ON {schema}.rfqs (expiry) WHERE status IN ('pending', 'proposed');
    `,
  },
  {
    version: 8,
    name: 'risk: one exposure account, losses kept, price samples, reasons',
    sql: `
      -- The price window's samples (Query/PoolPrice at each committed height; NULL: no pool
      -- then), so a restarted service has its window at once (market/price-oracle.ts).
      CREATE TABLE {schema}.price_samples (
        asset_id  text NOT NULL,
        height    bigint NOT NULL,
        pool_id   bigint,
        price     numeric,
        PRIMARY KEY (asset_id, height)
      );
      -- Losses the lender's liquidations and the desk's positions took, charged against their
      -- caps (and starting a cool-off of the asset and its issuer) until an operator resets
      -- them (npm run risk -- reset).
      CREATE TABLE {schema}.risk_losses (
        id          bigserial PRIMARY KEY,
        source      text NOT NULL CHECK (source IN ('lender', 'desk')),
        asset_id    text NOT NULL,
        issuer      text NOT NULL,
        borrower    text,                          -- the lender's: the liquidated loan's borrower
        amount      numeric NOT NULL CHECK (amount > 0),
        ref         text NOT NULL UNIQUE,          -- what took it: the loan, or the desk's asset and height
        height      bigint NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now(),
        reset_at    timestamptz,
        reset_note  text
      );
      CREATE INDEX risk_losses_charged ON {schema}.risk_losses (source, asset_id) WHERE reset_at IS NULL;
      -- What the desk holds of each asset (every unit, locked ones too) valued at mid, as of the
      -- chain height of its latest book; the lender reads it for the issuer cap they share.
      CREATE TABLE {schema}.desk_exposure (
        asset_id    text PRIMARY KEY,
        issuer      text NOT NULL,
        value       numeric NOT NULL,
        height      bigint NOT NULL,
        updated_at  timestamptz NOT NULL DEFAULT now()
      );
      -- The desk's answer to each proposal it judged (GET /api/desk/offers); an accept not yet
      -- in its holding counts against its caps (value: the units bought, at mid).
      CREATE TABLE {schema}.desk_offers (
        settlement_id  bigint PRIMARY KEY,
        proposer       text NOT NULL,
        asset_id       text,
        issuer         text,
        amount         numeric,                    -- the stable-denom leg
        buys_value     numeric,                    -- a purchase: what it adds to the desk's exposure
        verdict        text NOT NULL CHECK (verdict IN ('accepting', 'accepted', 'refused', 'cancelled', 'left_to_expire')),
        reason         text,
        detail         text,
        tx_hash        text,
        height         bigint,                     -- of the accept, once committed
        created_at     timestamptz NOT NULL DEFAULT now(),
        updated_at     timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX desk_offers_proposer ON {schema}.desk_offers (proposer, settlement_id DESC);
      CREATE INDEX desk_offers_buying ON {schema}.desk_offers (asset_id) WHERE buys_value IS NOT NULL AND verdict IN ('accepting', 'accepted');
      -- a sell RFQ's purchase at mid, counted against the desk's caps while it is outstanding
      ALTER TABLE {schema}.rfqs ADD COLUMN buys_value numeric, ADD COLUMN issuer text;
      -- reasons as codes (app-services/openapi.yaml Reason) beside their sentences; the refused
      -- pledge as the loans list shows it (the lender may refuse it before the index has it)
      ALTER TABLE {schema}.pledge_refusals ADD COLUMN reason_code text, ADD COLUMN holder text, ADD COLUMN asset_id text,
        ADD COLUMN kind_id integer, ADD COLUMN units numeric;
      CREATE INDEX pledge_refusals_holder ON {schema}.pledge_refusals (holder, created_at DESC);
      ALTER TABLE {schema}.loans ADD COLUMN issuer text, ADD COLUMN reason text, ADD COLUMN detail text, ADD COLUMN limited_by text;
    `,
  },
  {
    version: 9,
    name: 'webhooks: subscriptions, cursors, delivery log',
    sql: `
      -- One row per webhook subscription (app-services/webhooks/): its target, what it follows,
      -- its secrets (AES-256-GCM, never in clear) and its cursor: every event up to it is delivered.
      -- The cursor is after the event cursor_event, or (NULL) after every event of cursor_height.
      CREATE TABLE {schema}.webhooks (
        id               text PRIMARY KEY,
        owner            text NOT NULL,           -- the API key's name (API_KEYS_FILE), or 'operator'
        url              text NOT NULL,
        filter           jsonb NOT NULL,          -- {} | {account} | {asset} | {method}
        blocks           boolean NOT NULL,        -- block events delivered too
        secret           bytea NOT NULL,
        previous_secret  bytea,                   -- still signed with until previous_until (a rotation's overlap)
        previous_until   timestamptz,
        state            text NOT NULL CHECK (state IN ('active', 'paused', 'disabled')),
        reason           text,                    -- why disabled
        cursor_height    bigint NOT NULL,
        cursor_event     text,
        failures         integer NOT NULL DEFAULT 0,
        failing_since    timestamptz,
        next_attempt_at  timestamptz,
        last_error       text,
        delivered        bigint NOT NULL DEFAULT 0,
        source           text NOT NULL DEFAULT 'api' CHECK (source IN ('api', 'file')),
        created_at       timestamptz NOT NULL DEFAULT now(),
        updated_at       timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX webhooks_owner ON {schema}.webhooks (owner, created_at, id);
      -- The last attempts of each subscription (WEBHOOK_LOG_KEEP are kept).
      CREATE TABLE {schema}.webhook_deliveries (
        id          bigserial PRIMARY KEY,
        webhook_id  text NOT NULL REFERENCES {schema}.webhooks (id) ON DELETE CASCADE,
        event_id    text NOT NULL,
        attempt     integer NOT NULL,
        status      integer,
        latency_ms  integer NOT NULL,
        error       text,
        redelivery  boolean NOT NULL DEFAULT false,
        at          timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX webhook_deliveries_of ON {schema}.webhook_deliveries (webhook_id, id DESC);
      -- Redeliveries asked for and not yet made (one of each event at a time).
      CREATE TABLE {schema}.webhook_redeliveries (
        webhook_id    text NOT NULL REFERENCES {schema}.webhooks (id) ON DELETE CASCADE,
        event_id      text NOT NULL,
        requested_at  timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (webhook_id, event_id)
      );
      -- The key secrets are sealed with when WEBHOOK_SECRET_KEY is unset: made once, kept here.
      CREATE TABLE {schema}.webhook_key (
        id   integer PRIMARY KEY CHECK (id = 1),
        key  bytea NOT NULL
      );
    `,
  },
  {
    version: 10,
    name: 'desk exposure at cost, its sales of excess inventory',
    sql: `
      -- the desk's exposure is now what it paid, net (risk/exposure.ts): the rows at mid go, the next book publishes
      DELETE FROM {schema}.desk_exposure;
      -- the desk's sales of excess inventory into the pool (desk/inventory.ts): recorded before the swap is
      -- signed (selling), settled from its intent (sold with what the pool paid, or failed)
      CREATE TABLE {schema}.desk_sales (
        ref        text PRIMARY KEY,              -- the sale's intent id: desk/sell/<asset>/<height>
        asset_id   text NOT NULL,
        issuer     text NOT NULL,
        units      numeric NOT NULL,              -- whole-bundle base units sold
        status     text NOT NULL CHECK (status IN ('selling', 'sold', 'failed')),
        proceeds   numeric,                       -- stable base units the pool paid
        height     bigint NOT NULL,               -- the book height it was judged at; the tx's height once sold
        tx_hash    text,
        error      text,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX desk_sales_asset ON {schema}.desk_sales (asset_id, height DESC);
    `,
  },
  {
    version: 11,
    name: 'webhooks: the deliverer lease',
    sql: `
      -- The webhooks deliverer's lease (webhooks/dispatcher.ts): the holder of the webhooks actor
      -- lock renews it while it delivers and posts only while its renewal is fresh; the next holder
      -- waits until the lease plus one delivery timeout have passed, so no two processes ever have
      -- a delivery in flight at once. until NULL: released by a clean stop (no wait).
      CREATE TABLE {schema}.webhook_lease (
        id     integer PRIMARY KEY CHECK (id = 1),
        epoch  bigint NOT NULL,                 -- the holder's fencing epoch (actor_epochs)
        until  timestamptz
      );
    `,
  },
  {
    version: 12,
    name: 'pool sales of both services: the lender sells what its liquidations seized',
    sql: `
      -- one ledger of sales into an asset's pool (store/pool-sales.ts): the desk's excess inventory and the
      -- units the lender's liquidations seized (lender/worker.ts), each sale its intent's ref
      ALTER TABLE {schema}.desk_sales RENAME TO pool_sales;
      ALTER INDEX {schema}.desk_sales_pkey RENAME TO pool_sales_pkey;
      ALTER INDEX {schema}.desk_sales_asset RENAME TO pool_sales_asset;
      ALTER TABLE {schema}.pool_sales
        ADD COLUMN seller text NOT NULL DEFAULT 'desk' CHECK (seller IN ('desk', 'lender')),
        ADD COLUMN loan_id text REFERENCES {schema}.loans (id);
      ALTER TABLE {schema}.pool_sales ALTER COLUMN seller DROP DEFAULT;
      CREATE INDEX pool_sales_loan ON {schema}.pool_sales (loan_id) WHERE loan_id IS NOT NULL;
      -- a liquidated loan's recovery: its seized units are sold back into the pool; once the sale ends, what
      -- it fell short of the principal is charged as the loss (until then the principal less the proceeds is
      -- the lender's exposure). Loans liquidated before this had their loss charged at once: closed.
      ALTER TABLE {schema}.loans ADD COLUMN recovery_closed_at timestamptz;
      UPDATE {schema}.loans SET recovery_closed_at = updated_at WHERE status = 'liquidated';
    `,
  },
];

const LOCK_NAME = 'svc-app-services/migrations';

async function ensureBookkeeping(client: PoolClient, schema: string): Promise<void> {
  const s = quoteIdent(schema);
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${s}.schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
  );
}

/** Applies the missing migrations; returns the versions it applied. */
export async function migrate(
  pool: Pool,
  schema: string,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
  return withTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [LOCK_NAME]);
    await ensureBookkeeping(client, schema);
    const s = quoteIdent(schema);
    const done = new Set(
      (await client.query<{ version: number }>(`SELECT version FROM ${s}.schema_migrations`)).rows.map(
        (r) => r.version,
      ),
    );
    const applied: number[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await client.query(m.sql.split('{schema}').join(s));
      await client.query(`INSERT INTO ${s}.schema_migrations (version, name) VALUES ($1, $2)`, [m.version, m.name]);
      applied.push(m.version);
    }
    return applied;
  });
}
