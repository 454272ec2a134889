/** The devnet chain layer: txs, blocks, block production and the CometBFT RPC. */
export * from './hashing';
export * from './block';
export * from './tx';
export * from './render';
export * from './chain';
export { BlockArchive, type ArchivedBlock } from './archive';
export { RpcError, RpcCode } from './rpc-params';
export { RPC_METHODS, parseTxQuery } from './rpc-methods';
export type { RpcContext, RpcMethod } from './rpc-methods';
export * from './rpc';
