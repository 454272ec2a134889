/** Chain client helpers: the svc cosmjs registry, offline signing, contract queries. */
export * from './registry';
export * from './query-paths';
export * from './query-errors';
export * from './chain-query';
