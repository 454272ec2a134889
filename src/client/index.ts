/** Chain client helpers: the svc cosmjs registry, offline signing, contract ABCI queries. */
export * from './registry';
export * from './abci-query';
