/**
 * What the webhooks read their events from: the stream's events by position, regenerated from
 * the index by id exactly as /v1/stream's replay makes them (rest-adapter/stream/feed.ts, wired by
 * src/runtime/app-services.ts: the app services import nothing of the read API).
 */

/** At most one of account (bech32 or 0x), asset, method; none: every tx of the chain is not followed, only blocks. */
export interface WebhookFilter {
  account?: string;
  asset?: string;
  method?: string;
}

/** After the event `eventId`, or (null) after every event of `height`. */
export interface WebhookCursor {
  height: number;
  eventId: string | null;
}

export interface WebhookEvent {
  id: string;
  kind: 'block' | 'tx' | 'activity';
  height: number;
  /** the stream's `data` JSON of the event */
  json: string;
}

export interface WebhookFeed {
  /** the canonical filter; throws an InvalidInputError (src/lib/errors) with the reason when malformed */
  checkFilter(filter: WebhookFilter): WebhookFilter;
  /** the height of a stream event id; throws an InvalidInputError when it is not one */
  heightOfEventId(id: string): number;
  indexedHeight(): Promise<number | undefined>;
  after(
    filter: WebhookFilter,
    cursor: WebhookCursor,
    indexed: number,
  ): Promise<{ events: WebhookEvent[]; through: number }>;
  event(filter: WebhookFilter, id: string): Promise<WebhookEvent | undefined>;
}
