/**
 * A raw event as the indexer stores it with its tx or block (`txes.events`, `blocks.events`:
 * JSON text, [{type, attributes: [{key, value}]}] in chain order; see schema.graphql). Read by
 * the repositories, turned into openapi `Event` objects by presenters/events.ts.
 */
/** One stored raw event; attributes may carry more than key and value (Comet's `index`). */
export interface RawEvent {
  type: string;
  attributes?: readonly { key: unknown; value: unknown }[] | null;
}
