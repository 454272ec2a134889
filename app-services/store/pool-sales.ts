/**
 * The services' sales into an asset's own pool (`pool_sales`): the desk's excess inventory
 * (desk/inventory.ts) and the units the lender's liquidations seized (lender/worker.ts). A
 * sale is recorded before its swap is signed (`selling`, its ref the intent's id) and settled
 * from that intent (`sold` with what the pool paid, or `failed`), so a crash between the two
 * neither loses a sale nor counts one twice.
 */
import type { Pool } from 'pg';
import { quoteIdent } from '../../src/store';
import { isFinal, type IntentLog } from '../intents/intent-log';
import type { CommittedTx } from '../chain/chain-client';
import { decodeTypedEvent } from '../../src/lib/typed-event';
import type { EventSwapped } from '../../src/mappings/generated/proto-json';

export type Seller = 'desk' | 'lender';

export interface NewSale {
  ref: string;
  assetId: string;
  issuer: string;
  /** whole-bundle base units */
  units: bigint;
  /** the height it was judged at */
  height: number;
  /** the liquidated loan whose seized units these are (the lender's) */
  loanId?: string;
}

/** What a loan's recovery has sold so far: units sold or being sold, and what the pool paid for those sold. */
export interface Recovered {
  units: bigint;
  proceeds: bigint;
  /** a sale signed and not yet settled */
  inFlight: boolean;
}

export class PoolSales {
  private readonly table: string;

  constructor(
    private readonly pool: Pool,
    appSchema: string,
    private readonly seller: Seller,
  ) {
    this.table = `${quoteIdent(appSchema)}.pool_sales`;
  }

  /** The table, for a caller's own SQL (the desk's cost, the lender's exposure). */
  static tableIn(appSchema: string): string {
    return `${quoteIdent(appSchema)}.pool_sales`;
  }

  /** Records a sale about to be signed (once: its ref is its intent id); false when it was recorded before. */
  async starting(sale: NewSale): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `INSERT INTO ${this.table} (ref, seller, asset_id, issuer, units, status, height, loan_id)
       VALUES ($1, $2, $3, $4, $5, 'selling', $6, $7) ON CONFLICT (ref) DO NOTHING`,
      [sale.ref, this.seller, sale.assetId, sale.issuer, sale.units.toString(), sale.height, sale.loanId ?? null],
    );
    return rowCount === 1;
  }

  /** Sales recorded and not yet settled from their intents (a crash between sign and record leaves one). */
  async inFlight(): Promise<string[]> {
    const { rows } = await this.pool.query<{ ref: string }>(
      `SELECT ref FROM ${this.table} WHERE seller = $1 AND status = 'selling'`,
      [this.seller],
    );
    return rows.map((r) => r.ref);
  }

  async sold(ref: string, proceeds: bigint, height: number, txHash: string): Promise<void> {
    await this.pool.query(
      `UPDATE ${this.table} SET status = 'sold', proceeds = $2, height = $3, tx_hash = $4 WHERE ref = $1 AND status = 'selling'`,
      [ref, proceeds.toString(), height, txHash],
    );
  }

  async failed(ref: string, error: string): Promise<void> {
    await this.pool.query(
      `UPDATE ${this.table} SET status = 'failed', error = $2 WHERE ref = $1 AND status = 'selling'`,
      [ref, error],
    );
  }

  /** The height of this seller's latest sale of the asset (any status), or null. */
  async lastHeight(assetId: string): Promise<number | null> {
    const { rows } = await this.pool.query<{ h: string | null }>(
      `SELECT max(height)::text AS h FROM ${this.table} WHERE seller = $1 AND asset_id = $2`,
      [this.seller, assetId],
    );
    return rows[0]?.h == null ? null : Number(rows[0].h);
  }

  /** What the sales of each of these loans' seized units have taken and paid, by loan id. */
  async recoveredOf(loanIds: readonly string[]): Promise<Map<string, Recovered>> {
    const { rows } = await this.pool.query<{ loan_id: string; units: string; proceeds: string; in_flight: boolean }>(
      `SELECT loan_id, sum(units) FILTER (WHERE status <> 'failed')::text AS units,
              coalesce(sum(proceeds) FILTER (WHERE status = 'sold'), 0)::text AS proceeds,
              bool_or(status = 'selling') AS in_flight
         FROM ${this.table} WHERE loan_id = ANY($1) GROUP BY loan_id`,
      [loanIds],
    );
    return new Map(
      rows.map((r) => [
        r.loan_id,
        { units: BigInt(r.units ?? '0'), proceeds: BigInt(r.proceeds), inFlight: r.in_flight },
      ]),
    );
  }

  /**
   * Settles a recorded sale from its intent: sold, with what the swap's EventSwapped says the
   * pool paid, or failed; nothing while the intent is not final.
   */
  async settle(
    ref: string,
    intents: Pick<IntentLog, 'get'>,
    findTx: (hash: string) => Promise<CommittedTx | null>,
  ): Promise<void> {
    const intent = await intents.get(ref);
    if (!intent) return this.failed(ref, 'no swap was signed');
    if (!isFinal(intent.status)) return;
    if (intent.status !== 'committed')
      return this.failed(ref, `the swap failed on the chain (${intent.codespace}/${intent.code})`);
    const tx = await findTx(intent.txHash!);
    const event = tx?.events.find((e) => e.type === 'svc.dex.v1.EventSwapped');
    const swapped = event && (decodeTypedEvent(event.type, event.attributes) as Partial<EventSwapped> | null);
    if (swapped?.amount_out === undefined) throw new Error(`tx ${intent.txHash} swapped nothing`);
    await this.sold(ref, BigInt(swapped.amount_out), intent.height!, intent.txHash!);
  }
}
