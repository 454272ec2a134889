/** Pure, bundle-safe helpers shared by mappings, the REST adapter, app services and the devnet. */
export * from './errors';
export * from './config';
export * from './bytes';
export * from './address';
export * from './ids';
export * from './amount';
export * from './accrual';
export * from './typed-event';
export * from './cursor';
export * from './canonical-json';
