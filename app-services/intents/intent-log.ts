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
 * the account's committed sequence has passed the tx's sequence and the chain's own blocks,
 * from the height read just before the broadcast up to one where the sequence is past, do
 * not hold its hash (the node's tx index may lag or be pruned: its "not found" proves
 * nothing; a block that cannot be read keeps the intent open). Until then the same bytes
 * are broadcast again (a node that still holds them answers "already in cache"), so at most
 * one signed form of an action can ever commit.
 *
 * Only the process that holds the key's actor lock (actor-lock.ts) acts, and it proves so
 * at each signature: the transaction that records the signed bytes reads the key's epoch
 * (FOR SHARE) and refuses with FencedOut, before anything is broadcast, unless it is still
 * the one this log was given when the lock was taken. The rows that must survive a power
 * cut before the chain sees anything (the intent, its signed bytes) commit with
 * synchronous_commit on, whatever the server's default.
 */
import type { Pool } from 'pg';
import type { CommittedTx } from '../chain/chain-client';
import type { IntentMessage } from '../chain/messages';
import { expectedSequence, isOutOfGas, isSequenceMismatch, type ChainSigner, type SignedTx } from '../chain/signer';
import type { PartLogger } from '../../src/lib/logger';
import { quoteIdent, withTransaction } from '../../src/store';
import { failpoint } from './failpoints';

export type IntentStatus = 'pending' | 'signed' | 'committed' | 'failed' | 'rejected';
const FINAL: readonly IntentStatus[] = ['committed', 'failed', 'rejected'];

export interface IntentRequest {
  /** the action's identity; the same id never acts twice */
  id: string;
  kind: string;
  messages: readonly IntentMessage[];
  memo?: string;
  /** the least gas the tx may carry (performRetrying sets it after an out-of-gas attempt) */
  minGas?: bigint;
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
  /** gas limit of the signed tx */
  gas: bigint | null;
  /** the fencing epoch it was signed under */
  epoch: bigint | null;
  broadcastHeight: number | null;
  /** performRetrying: the action and the attempt number (1 for `<action>`, n for `<action>#n`) */
  action: string | null;
  attempt: number | null;
}

export interface RetrySettings {
  /** APP_RETRY_BASE_MS: the wait after a first failed attempt; doubled after each further one */
  baseMs: number;
  /** APP_RETRY_MAX_MS: the longest wait */
  maxMs: number;
}

export const DEFAULT_RETRY: RetrySettings = { baseMs: 2000, maxMs: 60_000 };

export interface IntentLogOptions {
  pool: Pool;
  schema: string;
  signer: ChainSigner;
  /** how long one perform() waits for the tx to be in a block (default 30 s); the intent stays open after */
  inclusionTimeoutMs?: number;
  /** the fencing epoch of the actor lock this process holds (claimEpoch); also setEpoch() */
  epoch?: bigint;
  retry?: RetrySettings;
  /** the key's role, in logs and metrics */
  role?: string;
  log?: PartLogger;
  /** after each intent that settles failed or rejected (for metrics) */
  onFailure?: (intent: Intent) => void;
  /** a signature was refused because another process took the key's lock */
  onFencedOut?: (error: FencedOut) => void;
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
  gas: string | null;
  min_gas: string | null;
  epoch: string | null;
  broadcast_height: string | null;
  action: string | null;
  attempt: number | null;
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

/**
 * The key's lock is no longer this process's (another took it, bumping the epoch): nothing
 * was recorded or broadcast, and this process must stop acting for the key.
 */
export class FencedOut extends Error {
  constructor(
    readonly id: string,
    readonly epoch: bigint | undefined,
    readonly current: bigint | undefined,
  ) {
    super(
      `intent ${id} not signed: this process's actor epoch ${epoch ?? '(none)'} is not the key's (${current ?? 'none'})`,
    );
    this.name = 'FencedOut';
  }
}

const big = (v: string | null) => (v === null ? null : BigInt(v));

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
    gas: big(r.gas),
    epoch: big(r.epoch),
    broadcastHeight: r.broadcast_height === null ? null : Number(r.broadcast_height),
    action: r.action,
    attempt: r.attempt,
  };
}

/** The wait after attempt `n` ended failed or rejected. */
export function retryDelayMs(n: number, settings: RetrySettings): number {
  return Math.min(settings.baseMs * 2 ** Math.max(0, n - 1), settings.maxMs);
}

export const isFinal = (status: IntentStatus) => FINAL.includes(status);

export class IntentLog {
  private readonly table: string;
  private readonly signer: ChainSigner;
  private readonly inclusionTimeoutMs: number;
  private readonly epochs: string;
  private readonly retry: RetrySettings;
  private readonly inFlight = new Map<string, Promise<Intent>>();
  private epoch: bigint | undefined;

  constructor(private readonly options: IntentLogOptions) {
    this.table = `${quoteIdent(options.schema)}.intents`;
    this.epochs = `${quoteIdent(options.schema)}.actor_epochs`;
    this.signer = options.signer;
    this.inclusionTimeoutMs = options.inclusionTimeoutMs ?? 30_000;
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.epoch = options.epoch;
  }

  get actor(): string {
    return this.signer.address;
  }

  /** The epoch of the lock just taken; undefined when it is lost (nothing is signed then). */
  setEpoch(epoch: bigint | undefined): void {
    this.epoch = epoch;
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

  /**
   * For an action that must eventually happen (a liquidation, a release, an accept): carries
   * its latest attempt on, and when that attempt ended failed or rejected, makes a new one
   * once the backoff after it has passed. Attempt ids are `<action>`, then `<action>#2`,
   * `<action>#3`, …; an attempt that ran out of gas (sdk/11) is followed by one with twice
   * its gas limit. Call it every pass while the action is still needed, with the messages
   * as they should be now; stop calling once it is not (nothing more is signed then).
   *
   *   const latest = await actor.intents.performRetrying({ id: `lender/liquidate/${loan.id}`, kind: 'lender.liquidate', messages });
   *   if (latest.status === 'committed') markLiquidated(loan);
   *   // failed / rejected: logged and counted; the next call after the backoff tries again
   *
   * Answers the latest attempt (committed, or failed/rejected while backing off); throws
   * like perform() while the attempt is open (IntentOpen, InclusionTimeout, FencedOut).
   */
  performRetrying(request: IntentRequest): Promise<Intent> {
    const action = request.id;
    return this.once(`retry:${action}`, async () => {
      const latest = await this.latestAttempt(action);
      if (!latest) return this.performAttempt(request, action, 1);
      if (!isFinal(latest.row.status)) return this.once(latest.row.id, () => this.advance(latest.row));
      if (latest.row.status === 'committed') return toIntent(latest.row);
      const n = latest.row.attempt ?? 1;
      if (latest.ageMs < retryDelayMs(n, this.retry)) return toIntent(latest.row);
      const minGas = isOutOfGas(latest.row) && latest.row.gas ? 2n * BigInt(latest.row.gas) : request.minGas;
      return this.performAttempt({ ...request, id: `${action}#${n + 1}`, minGas }, action, n + 1);
    });
  }

  /** The latest attempt of a performRetrying action (or the intent of that id), without acting. */
  async latest(action: string): Promise<Intent | undefined> {
    const latest = await this.latestAttempt(action);
    return latest && toIntent(latest.row);
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

  private performAttempt(request: IntentRequest, action: string, attempt: number): Promise<Intent> {
    return this.once(request.id, async () => this.advance(await this.insertOrGet(request, { action, attempt })));
  }

  private async latestAttempt(action: string): Promise<{ row: IntentRow; ageMs: number } | undefined> {
    const { rows } = await this.options.pool.query<IntentRow & { age_ms: number }>(
      `SELECT *, extract(epoch FROM now() - updated_at) * 1000 AS age_ms FROM ${this.table}
       WHERE action = $1 OR id = $1 ORDER BY coalesce(attempt, 1) DESC LIMIT 1`,
      [action],
    );
    return rows[0] && { row: rows[0], ageMs: Number(rows[0].age_ms) };
  }

  private async signAndSettle(row: IntentRow): Promise<Intent> {
    // a sequence-mismatch re-sign replaces this call's own earlier bytes, never another's
    let recorded: string | null = null;
    const record = async (s: SignedTx) => {
      await this.recordSigned(row.id, s, recorded);
      recorded = s.hash;
    };
    const minGas = row.min_gas === null ? 0n : BigInt(row.min_gas);
    const { signed, checkTx } = await this.signer.submit(row.messages, record, row.memo, minGas);
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
    // the index's answer is proof when it finds the tx, never when it does not
    const indexed = await this.signer.chainClient.findTx(hash);
    if (indexed) return this.settleCommitted(row.id, indexed);
    const height = await this.signer.chainClient.height();
    const account = await this.signer.chainClient.account(this.actor, height);
    if (account && account.sequence > sequence) {
      const inBlock = await this.scanBlocks(row, height);
      return inBlock ? this.settleCommitted(row.id, inBlock) : this.signAgain(row);
    }
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

  /**
   * The tx in the chain's own blocks from its broadcast height to `to` (where the account's
   * sequence is already past it, so it is there or nowhere); IntentOpen when a block cannot
   * be read, since a missing block proves nothing.
   */
  private async scanBlocks(row: IntentRow, to: number): Promise<CommittedTx | null> {
    if (row.broadcast_height === null)
      throw new IntentOpen(row.id, 'no broadcast height recorded: its absence from the chain cannot be proven');
    for (let h = Math.max(1, Number(row.broadcast_height)); h <= to; h++) {
      let found: CommittedTx | null;
      try {
        found = await this.signer.chainClient.findTxInBlock(row.tx_hash!, h);
      } catch (e) {
        throw new IntentOpen(row.id, `block ${h} cannot be read (${e instanceof Error ? e.message : String(e)})`);
      }
      if (found) return found;
    }
    return null;
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

  /** Records the intent (once), durably: it must outlive a power cut once anything may act on it. */
  private async insertOrGet(
    request: IntentRequest,
    retry: { action: string; attempt: number } | null = null,
  ): Promise<IntentRow> {
    const rows = await withTransaction(this.options.pool, async (c) => {
      await c.query('SET LOCAL synchronous_commit = on');
      return (
        await c.query<IntentRow>(
          `INSERT INTO ${this.table} (id, actor, kind, messages, memo, status, min_gas, action, attempt)
           VALUES ($1, $2, $3, $4, $5, 'pending', $6, $7, $8)
           ON CONFLICT (id) DO NOTHING RETURNING *`,
          [
            request.id,
            this.actor,
            request.kind,
            JSON.stringify(request.messages),
            request.memo ?? '',
            request.minGas?.toString() ?? null,
            retry?.action ?? null,
            retry?.attempt ?? null,
          ],
        )
      ).rows;
    });
    failpoint('after-record');
    return rows[0] ?? (await this.row(request.id))!;
  }

  private async row(id: string): Promise<IntentRow | undefined> {
    return (await this.options.pool.query<IntentRow>(`SELECT * FROM ${this.table} WHERE id = $1`, [id])).rows[0];
  }

  /**
   * Records the signed bytes before they are broadcast, durably, in one transaction that
   * proves this process still holds the key's lock (its epoch is the stored one, read FOR
   * SHARE so a new holder's bump waits for this commit, and then sees these bytes). Moves
   * the row from pending only, or from this very call's previous bytes (`replacing`).
   */
  private async recordSigned(id: string, signed: SignedTx, replacing: string | null): Promise<void> {
    if (this.epoch === undefined) this.fencedOut(new FencedOut(id, undefined, undefined));
    failpoint('pause-before-record');
    const broadcastHeight = await this.signer.chainClient.height();
    await withTransaction(this.options.pool, async (c) => {
      await c.query('SET LOCAL synchronous_commit = on');
      const { rows } = await c.query<{ epoch: string }>(
        `SELECT epoch FROM ${this.epochs} WHERE address = $1 FOR SHARE`,
        [this.actor],
      );
      const current = rows[0] ? BigInt(rows[0].epoch) : undefined;
      if (current !== this.epoch) this.fencedOut(new FencedOut(id, this.epoch, current));
      const { rowCount } = await c.query(
        `UPDATE ${this.table} SET status = 'signed', tx_hash = $2, tx_bytes = $3, sequence = $4, gas = $5, epoch = $6,
           broadcast_height = $7, attempts = attempts + 1, updated_at = now()
         WHERE id = $1 AND (status = 'pending' OR (status = 'signed' AND tx_hash = $8))`,
        [
          id,
          signed.hash,
          Buffer.from(signed.bytes),
          signed.sequence.toString(),
          signed.gas.toString(),
          this.epoch!.toString(),
          broadcastHeight,
          replacing,
        ],
      );
      if (rowCount !== 1) throw new Error(`intent ${id} was signed or settled by another attempt while being signed`);
    });
    failpoint('before-broadcast');
  }

  private fencedOut(error: FencedOut): never {
    this.epoch = undefined;
    this.options.onFencedOut?.(error);
    throw error;
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
    const intent = toIntent(rows[0]);
    if (intent.status === 'failed' || intent.status === 'rejected') this.reportFailure(intent);
    return intent;
  }

  /** Logged and counted, never silent; the signed bytes and the chain's raw log stay out of the log line. */
  private reportFailure(intent: Intent): void {
    this.options.log?.warn('chain action failed', {
      role: this.options.role,
      id: intent.id,
      kind: intent.kind,
      outcome: intent.status,
      codespace: intent.codespace,
      code: intent.code,
      tx_hash: intent.txHash,
    });
    this.options.onFailure?.(intent);
  }
}
