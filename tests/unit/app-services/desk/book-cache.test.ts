/** The quote book is never older than the latest block: a new chain or indexed height rebuilds it, whatever DESK_QUOTE_CACHE_MS says. */
import type { Pool } from 'pg';
import { tablesIn } from '../../../../src/store';
import type { ChainClient } from '../../../../app-services/chain/chain-client';
import type { ChainQueries } from '../../../../app-services/chain/queries';
import { DeskBook } from '../../../../app-services/desk/book';
import type { DeskRepository } from '../../../../app-services/desk/repository';
import type { Market } from '../../../../app-services/market/eligibility';
import { emptySnapshot, RiskTiers } from '../../../../app-services/risk/exposure';
import type { RiskRepository } from '../../../../app-services/risk/repository';

function bookWith(heights: { chain: number; indexed: number }) {
  let builds = 0;
  const repository = {
    deskAssets: async () => {
      builds++;
      return [];
    },
    paid: async () => new Map(),
  } as unknown as DeskRepository;
  const chain = { height: async () => heights.chain, balance: async () => 0n } as unknown as ChainClient;
  const pool = { query: async () => ({ rows: [{ value: String(heights.indexed) }] }) } as unknown as Pool;
  const risk = {
    publishDeskHoldings: async () => undefined,
    deskLosses: async () => ({ charged: new Map(), writtenOff: new Map() }),
    snapshot: async () => emptySnapshot(),
  } as unknown as RiskRepository;
  const book = new DeskBook({
    repository,
    risk,
    queries: {} as ChainQueries,
    chain,
    market: { settings: { maxDivergenceBps: 1000 } } as unknown as Market,
    pool,
    svc: tablesIn('svc'),
    desk: 'svc1desk',
    denom: 'uusdc',
    cacheMs: 60_000,
    limits: {
      maxPosition: 10n ** 12n,
      maxPoolShareBps: 1000,
      maxTotal: 10n ** 12n,
      communityMaxPosition: 10n ** 12n,
      communityMaxTotal: 10n ** 12n,
    },
    shared: {
      tiers: new RiskTiers([]),
      maxPerIssuer: 10n ** 12n,
      communityMaxPerIssuer: 10n ** 12n,
      lossCooloffMs: 0,
      listedLossCooloffMs: 0,
      listedCooloffFullLoss: 1n,
      issuerLossThreshold: 0n,
    },
    fromHeight: 0,
  });
  return { book, builds: () => builds };
}

test('the same heights within DESK_QUOTE_CACHE_MS: one build', async () => {
  const { book, builds } = bookWith({ chain: 10, indexed: 9 });
  await book.current();
  await book.current();
  expect(builds()).toBe(1);
});

test('a new chain height, or a new indexed height, rebuilds at once', async () => {
  const heights = { chain: 10, indexed: 9 };
  const { book, builds } = bookWith(heights);
  await book.current();
  heights.chain = 11;
  await book.current();
  expect(builds()).toBe(2);
  heights.indexed = 10;
  await book.current();
  expect(builds()).toBe(3);
});
