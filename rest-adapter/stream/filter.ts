/**
 * The one filter of a stream: `account`, `asset` or `method`, or none (the chain). Each is
 * parsed as the list routes parse it, so a value the stream accepts is one they accept.
 */
import { InvalidInputError } from '../../src/lib/errors';
import { parseAddressParam, parseAssetIdParam, parseMethod, queryValue, type QueryValues } from '../http/params';
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
  if (asset !== undefined) return { kind: 'asset', assetId: parseAssetIdParam(asset, 'asset') };
  const method = parseMethod(queryValue(query, 'method'));
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
