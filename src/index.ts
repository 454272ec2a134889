/**
 * Entry point of the SubQuery mapping bundle (`subql build` -> dist/index.js):
 * every handler named in project.yaml, one module per chain module.
 */
import './mappings/util/polyfills'; // first: libraries below need TextEncoder when they load
export * from './mappings/chain';
export * from './mappings/asset';
export * from './mappings/rights';
export * from './mappings/settlement';
export * from './mappings/encumbrance';
export * from './mappings/payout';
export * from './mappings/attestation';
export * from './mappings/delegation';
export * from './mappings/waterfall';
export * from './mappings/bridge';
export * from './mappings/dex';
export * from './mappings/evm';
