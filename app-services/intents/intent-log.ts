/**
 * Exactly-once chain actions. Every action a service takes on the chain is an intent with
 * a deterministic id (the action's identity: the same loan's principal always has the same
 * id). The intent is written before anything is signed, its signed bytes are written
 * before they are broadcast, and its outcome is settled from the chain after. So whatever
 * crash or restart comes between two of these steps, the next attempt finds the row and
 * carries it on instead of acting again.
 *
 *   pending ──sign+record──▶ signed ──in a block──▶ committed (code 0) | failed (code ≠ 0)
 *                               └──CheckTx refused (not a sequence mismatch)──▶ rejected
 *
 * A signed intent is signed anew only when its recorded tx provably can never be included:
 * the account's committed sequence has passed the tx's sequence and the tx is not in a
 * block. Until then the same bytes are broadcast again (a node that still holds them
 * answers "already in cache"), so at most one signed form of an action can ever commit.
 *
 * Only the process that holds the key's actor lock (actor-lock.ts) calls this.
 */
import type { EncodeObject } from '@cosmjs/proto-signing';
import type { Pool } from 'pg';
import type { CommittedTx } from '../chain/chain-client';
import { expectedSequence, isSequenceMismatch, type ChainSigner, type SignedTx } from '../chain/signer';
import { quoteIdent } from '../store/sql';
import { failpoint } from './failpoints';

export type IntentStatus = 'pending' | 'signed' | 'committed' | 'failed' | 'rejected';
const FINAL: readonly IntentStatus[] = ['committed', 'failed', 'rejected'];

/** A message as stored: type URL and a JSON value (proto-JSON for svc messages, cosmjs JSON for bank). */
export interface IntentMessage extends EncodeObject {
  value: Record<string, unknown>;
}

export interface IntentRequest {
  /** the action's identity; the same id never acts twice */
  id: string;
  kind: string;
  messages: readonly IntentMessage[];
  memo?: string;
}

export interface Intent {
  id: string;
  actor: string;
  kind: string;
  status: IntentStatus;
  messages: IntentMessage[];
  memo: string;
  sequence: bigint | null;
  txHash: string | null;
  attempts: number;
  height: number | null;
  code: number | null;
  codespace: string | null;
  log: string | null;
}

export interface IntentLogOptions {
  pool: Pool;
  schema: string;
  signer: ChainSigner;
  /** how long one perform() waits for the tx to be in a block (default 30 s); the intent stays open after */
  inclusionTimeoutMs?: number;
}

interface IntentRow {
  id: string;
  actor: string;
  kind: string;
  status: IntentStatus;
  messages: IntentMessage[];
  memo: string;
  sequence: string | null;
  tx_hash: string | null;
  tx_bytes: Buffer | null;
  attempts: number;
  height: string | null;
  code: number | null;
  codespace: string | null;
  log: string | null;
}

/** An intent that cannot settle yet (its tx is not in a block, or waits behind a sequence gap). */
export class IntentOpen extends Error {
  constructor(
    readonly id: string,
    why: string,
  ) {
    super(`intent ${id} is still open: ${why}`);
    this.name = 'IntentOpen';
  }
}

function toIntent(r: IntentRow): Intent {
  return {
    id: r.id,
    actor: r.actor,
    kind: r.kind,
    status: r.status,
    messages: r.messages,
    memo: r.memo,
    sequence: r.sequence === null ? null : BigInt(r.sequence),
    txHash: r.tx_hash,
    attempts: r.attempts,
    height: r.height === null ? null : Number(r.height),
    code: r.code,
    codespace: r.codespace,
    log: r.log,
  };
}

export const isFinal = (status: IntentStatus) => FINAL.includes(status);

export class IntentLog {
  private readonly table: string;
  private readonly signer: ChainSigner;
  private readonly inclusionTimeoutMs: number;
  private readonly inFlight = new Map<string, Promise<Intent>>();

  constructor(private readonly options: IntentLogOptions) {
    this.table = `${quoteIdent(options.schema)}.intents`;
    this.signer = options.signer;
    this.inclusionTimeoutMs = options.inclusionTimeoutMs ?? 30_000;
  }

  get actor(): string {
    return this.signer.address;
  }

  /**
   * Carries the action `request.id` to a final state: records it (once), signs and
   * broadcasts it (once, unless provably lost), and waits for its block. An action already
   * final answers its record without touching the chain. Throws InclusionTimeout or
   * IntentOpen when it is still open; a later call or reconcileOpen() settles it.
   */
  perform(request: IntentRequest): Promise<Intent> {
    return this.once(request.id, async () => this.advance(await this.insertOrGet(request)));
  }

  async get(id: string): Promise<Intent | undefined> {
    const { rows } = await this.options.pool.query<IntentRow>(`SELECT * FROM ${this.table} WHERE id = $1`, [id]);
    return rows[0] && toIntent(rows[0]);
  }

  /** Every open intent of this key, oldest sequence first: after a start, and now and then while acting. Returns those still open. */
  async reconcileOpen(): Promise<Intent[]> {
    const { rows } = await this.options.pool.query<IntentRow>(
      `SELECT * FROM ${this.table} WHERE actor = $1 AND status IN ('pending', 'signed') ORDER BY sequence NULLS LAST, created_at`,
      [this.actor],
    );
    const open: Intent[] = [];
    for (const row of rows) {
      try {
        const settled = await this.once(row.id, async () => this.advance((await this.row(row.id))!));
        if (!isFinal(settled.status)) open.push(settled);
      } catch {
        open.push(toIntent(row));
      }
    }
    return open;
  }

  // ---------------------------------------------------------------- steps

  private once(id: string, run: () => Promise<Intent>): Promise<Intent> {
    let p = this.inFlight.get(id);
    if (!p) {
      p = run().finally(() => this.inFlight.delete(id));
      this.inFlight.set(id, p);
    }
    return p;
  }

  private async advance(row: IntentRow): Promise<Intent> {
    if (row.actor !== this.actor) throw new Error(`intent ${row.id} belongs to ${row.actor}, not ${this.actor}`);
    if (row.status === 'pending') return this.signAndSettle(row);
    if (row.status === 'signed') return this.settleSigned(row);
    return toIntent(row);
  }

  private async signAndSettle(row: IntentRow): Promise<Intent> {
    const { signed, checkTx } = await this.signer.submit(row.messages, (s) => this.recordSigned(row.id, s), row.memo);
    failpoint('after-broadcast');
    if (checkTx.code === 0 || checkTx.alreadyKnown) return this.waitAndSettle(row.id, signed.hash);
    if (isSequenceMismatch(checkTx)) throw new IntentOpen(row.id, `sequence mismatch after retries (${checkTx.log})`);
    return this.settle(row.id, signed.hash, {
      status: 'rejected',
      code: checkTx.code,
      codespace: checkTx.codespace,
      log: checkTx.log,
      height: null,
    });
  }

  /** A signed intent found open after a crash, a timeout or a broadcast error. */
  private async settleSigned(row: IntentRow): Promise<Intent> {
    const hash = row.tx_hash!;
    const sequence = BigInt(row.sequence!);
    const inBlock = await this.signer.chainClient.findTx(hash);
    if (inBlock) return this.settleCommitted(row.id, inBlock);
    // the account first, then the tx again: a tx committed in between is found by the second look
    const account = await this.signer.chainClient.account(this.actor);
    const later = await this.signer.chainClient.findTx(hash);
    if (later) return this.settleCommitted(row.id, later);
    if (account && account.sequence > sequence) return this.signAgain(row);
    const r = await this.signer.rebroadcast(row.tx_bytes!);
    if (r.code === 0 || r.alreadyKnown) return this.waitAndSettle(row.id, hash);
    if (isSequenceMismatch(r)) {
      throw new IntentOpen(
        row.id,
        `waits for sequence ${sequence} (the chain expects ${expectedSequence(r.log) ?? '?'})`,
      );
    }
    return this.settle(row.id, hash, {
      status: 'rejected',
      code: r.code,
      codespace: r.codespace,
      log: r.log,
      height: null,
    });
  }

  /** The recorded tx can never be included (its sequence is used and it is not in a block): the action has not happened; sign it anew. */
  private async signAgain(row: IntentRow): Promise<Intent> {
    this.signer.resync();
    const { rows } = await this.options.pool.query<IntentRow>(
      `UPDATE ${this.table} SET status = 'pending', updated_at = now() WHERE id = $1 AND status = 'signed' AND tx_hash = $2 RETURNING *`,
      [row.id, row.tx_hash],
    );
    if (!rows[0]) throw new IntentOpen(row.id, 'changed while being re-signed');
    return this.signAndSettle(rows[0]);
  }

  private async waitAndSettle(id: string, hash: string): Promise<Intent> {
    return this.settleCommitted(id, await this.signer.waitForInclusion(hash, this.inclusionTimeoutMs));
  }

  private settleCommitted(id: string, tx: CommittedTx): Promise<Intent> {
    return this.settle(id, tx.hash, {
      status: tx.code === 0 ? 'committed' : 'failed',
      code: tx.code,
      codespace: tx.codespace,
      log: tx.log,
      height: tx.height,
    });
  }

  // ---------------------------------------------------------------- rows

  private async insertOrGet(request: IntentRequest): Promise<IntentRow> {
    const { rows } = await this.options.pool.query<IntentRow>(
      `INSERT INTO ${this.table} (id, actor, kind, messages, memo, status) VALUES ($1, $2, $3, $4, $5, 'pending')
       ON CONFLICT (id) DO NOTHING RETURNING *`,
      [request.id, this.actor, request.kind, JSON.stringify(request.messages), request.memo ?? ''],
    );
    failpoint('after-record');
    return rows[0] ?? (await this.row(request.id))!;
  }

  private async row(id: string): Promise<IntentRow | undefined> {
    return (await this.options.pool.query<IntentRow>(`SELECT * FROM ${this.table} WHERE id = $1`, [id])).rows[0];
  }

  private async recordSigned(id: string, signed: SignedTx): Promise<void> {
    const { rowCount } = await this.options.pool.query(
      `UPDATE ${this.table} SET status = 'signed', tx_hash = $2, tx_bytes = $3, sequence = $4, attempts = attempts + 1, updated_at = now()
       WHERE id = $1 AND status IN ('pending', 'signed')`,
      [id, signed.hash, Buffer.from(signed.bytes), signed.sequence.toString()],
    );
    if (rowCount !== 1) throw new Error(`intent ${id} was settled while being signed`);
    failpoint('before-broadcast');
  }

  private async settle(
    id: string,
    hash: string,
    outcome: { status: IntentStatus; code: number; codespace: string; log: string; height: number | null },
  ): Promise<Intent> {
    const { rows } = await this.options.pool.query<IntentRow>(
      `UPDATE ${this.table} SET status = $3, code = $4, codespace = $5, log = $6, height = $7, updated_at = now()
       WHERE id = $1 AND tx_hash = $2 RETURNING *`,
      [id, hash, outcome.status, outcome.code, outcome.codespace, outcome.log, outcome.height],
    );
    if (!rows[0]) throw new Error(`intent ${id} no longer holds tx ${hash}`);
    return toIntent(rows[0]);
  }
}
