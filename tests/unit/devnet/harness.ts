/**
 * Test harness: drives the devnet app through the Application interface the
 * way the chain layer does (beginBlock → ante + deliverTx per tx → endBlock →
 * commit), with hand-built TxContexts. Signers are bech32 strings; pubkeys
 * are dummy 33-byte arrays.
 */
import { QueryBalanceRequest, QueryBalanceResponse } from 'cosmjs-types/cosmos/bank/v1beta1/query';
import { toBech32 } from '../../../src/lib/address';
import { decodeTypedEvent } from '../../../src/lib/typed-event';
import { createSvcApp, queryJson, SvcApp, SvcAppOptions, AbciEvent, TxResult, TxMessage } from '../../../devnet/app';

export const T0 = Date.UTC(2030, 0, 1);
export const DAY = 86_400_000;

/** A deterministic test account: 20 bytes of `n`. */
export function addr(n: number): string {
  return toBech32(new Uint8Array(20).fill(n));
}

export const dummyPubKey = (n: number) => new Uint8Array(33).fill(n);

export interface TxOptions {
  fee?: { denom: string; amount: string }[];
  gasLimit?: bigint;
}

export class Harness {
  readonly app: SvcApp;
  height = 0;
  timeMs = T0;
  private inBlock = false;
  private txIndex = 0;
  beginEvents: AbciEvent[] = [];

  constructor(options: SvcAppOptions = {}) {
    this.app = createSvcApp(options);
  }

  /** Opens the next block (time advances by `advanceMs`). */
  begin(advanceMs = 1000): AbciEvent[] {
    if (this.inBlock) throw new Error('block already open');
    this.height += 1;
    this.timeMs += advanceMs;
    this.txIndex = 0;
    this.inBlock = true;
    this.beginEvents = this.app.beginBlock(this.height, this.timeMs);
    return this.beginEvents;
  }

  /** Runs ante + deliverTx as the chain layer would; opens a block if none is open. */
  tx(signers: string | string[], messages: TxMessage | TxMessage[], options: TxOptions = {}): TxResult {
    if (!this.inBlock) this.begin();
    const list = Array.isArray(signers) ? signers : [signers];
    const ctx = {
      height: this.height,
      timeMs: this.timeMs,
      txIndex: this.txIndex++,
      txHash: `${this.height}`.padStart(8, '0').padEnd(64, 'A'),
      signers: list,
      fee: options.fee ?? [],
      gasLimit: options.gasLimit ?? 10_000_000n,
      memo: '',
    };
    const ante = this.app.ante(
      ctx,
      list.map((_, i) => dummyPubKey(i + 2)),
    );
    if (!ante.ok)
      return {
        code: ante.code,
        codespace: ante.codespace,
        log: ante.log,
        gasWanted: ctx.gasLimit,
        gasUsed: 0n,
        events: [],
        data: new Uint8Array(),
      };
    const result = this.app.deliverTx(ctx, Array.isArray(messages) ? messages : [messages]);
    return { ...result, events: [...ante.events, ...result.events] };
  }

  /** tx() that must succeed. */
  ok(signers: string | string[], messages: TxMessage | TxMessage[], options: TxOptions = {}): TxResult {
    const r = this.tx(signers, messages, options);
    if (r.code !== 0) throw new Error(`tx failed ${r.codespace}/${r.code}: ${r.log}`);
    return r;
  }

  /** Ends and commits the open block; returns the EndBlock events. */
  commit(): AbciEvent[] {
    if (!this.inBlock) this.begin();
    const events = this.app.endBlock(this.height, this.timeMs);
    this.app.commit(this.height);
    this.inBlock = false;
    return events;
  }

  /** An empty block `advanceMs` after the previous one; returns its EndBlock events. */
  emptyBlock(advanceMs = 1000): { begin: AbciEvent[]; end: AbciEvent[] } {
    const begin = this.begin(advanceMs);
    return { begin, end: this.commit() };
  }

  query(path: string, request: Record<string, unknown>, height = 0): Record<string, unknown> {
    const r = queryJson(this.app, path, request, height);
    if (r.code !== 0) throw new Error(`query ${path} failed ${r.codespace}/${r.code}: ${r.log}`);
    return r.json!;
  }
}

export const msg = (typeUrl: string, value: Record<string, unknown>): TxMessage => ({ typeUrl, value });

/** Typed events of a given type, decoded. */
export function typed(events: AbciEvent[], type: string): Record<string, unknown>[] {
  return events.filter((e) => e.type === type).map((e) => decodeTypedEvent(e.type, e.attributes)!);
}

export function attr(event: AbciEvent, key: string): string | undefined {
  return event.attributes.find((a) => a.key === key)?.value;
}

export const rfc = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

export const ECONOMIC = { class: 'KIND_CLASS_ECONOMIC', decimals: 6, bundle: true, transferable: true };
export const INCOME = { class: 'KIND_CLASS_INCOME', decimals: 6, bundle: true, transferable: true };
export const VOTE = { class: 'KIND_CLASS_VOTE', decimals: 6, bundle: true, transferable: true };

/** Creates an asset (equity-like by default) and returns its id. */
export function createAsset(h: Harness, issuer: string, extra: Record<string, unknown> = {}): string {
  const r = h.ok(
    issuer,
    msg('/svc.asset.v1.MsgCreateAsset', {
      issuer,
      settlement_denom: 'uusdc',
      policy: { transfer: 'TRANSFER_MODE_OPEN' },
      kinds: [ECONOMIC, INCOME, VOTE],
      distribution_denoms: ['uusdc'],
      ...extra,
    }),
  );
  return typed(r.events, 'svc.asset.v1.EventAssetCreated')[0].asset_id as string;
}

export function issue(
  h: Harness,
  issuer: string,
  assetId: string,
  kindId: number,
  recipient: string,
  units: string,
): TxResult {
  return h.ok(issuer, msg('/svc.asset.v1.MsgIssue', { issuer, asset_id: assetId, kind_id: kindId, recipient, units }));
}

export function position(
  h: Harness,
  assetId: string,
  kindId: number,
  holder: string,
  height = 0,
): { units: string; locked: string; locks: { ref: string; units: string }[] } {
  return h.query('/svc.rights.v1.Query/Position', { asset_id: assetId, kind_id: kindId, holder }, height) as never;
}

export function coinBalance(h: Harness, address: string, denom: string): bigint {
  const r = h.app.query(
    '/cosmos.bank.v1beta1.Query/Balance',
    QueryBalanceRequest.encode({ address, denom }).finish(),
    0,
  );
  return BigInt(QueryBalanceResponse.decode(r.value).balance!.amount);
}

/** Balance including the open block's writes. */
export function pendingBalance(h: Harness, address: string, denom: string): bigint {
  const key = `bank/bal/${address}/${denom}`;
  return h.app.pendingState().get<bigint>(key) ?? 0n;
}
