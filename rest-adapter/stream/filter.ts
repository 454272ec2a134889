/**
 * The one filter of a stream: `account`, `asset` or `method`, or none (the chain). An account is
 * parsed as the list routes parse it; an asset or method is as given, the document's check of the
 * request (stream/route.ts) refusing a malformed one before the filter is used.
 */
import { InvalidInputError } from '../../src/lib/errors';
import { parseAddressParam, queryValue, type QueryValues } from '../http/params';
import { accountFeed, assetFeed } from '../repositories/activity';

export type StreamFilter =
  | { kind: 'chain' }
  | { kind: 'account'; account: string }
  | { kind: 'asset'; assetId: string }
  | { kind: 'method'; method: string };

const FILTER_NAMES = ['account', 'asset', 'method'] as const;

/** The filter of a request's query; a 400 for a malformed value or more than one filter. */
export function parseStreamFilter(query: QueryValues, hrp: string): StreamFilter {
  const given = FILTER_NAMES.filter((name) => queryValue(query, name) !== undefined);
  if (given.length > 1) throw new InvalidInputError(`at most one filter: got ${given.join(' and ')}`);
  const account = queryValue(query, 'account');
  if (account !== undefined) return { kind: 'account', account: parseAddressParam(account, hrp).bech32 };
  const asset = queryValue(query, 'asset');
  if (asset !== undefined) return { kind: 'asset', assetId: asset };
  const method = queryValue(query, 'method');
  if (method !== undefined) return { kind: 'method', method };
  return { kind: 'chain' };
}

/** One key per distinct filter: connections with equal keys share one store read per height. */
export function filterKey(filter: StreamFilter): string {
  switch (filter.kind) {
    case 'chain':
      return 'chain';
    case 'account':
      return accountFeed(filter.account);
    case 'asset':
      return assetFeed(filter.assetId);
    case 'method':
      return `method:${filter.method}`;
  }
}
