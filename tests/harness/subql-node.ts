/** The SubQuery node launcher (src/runtime/subql-node.ts, which npm start uses too), re-exported for the tests. */
export * from '../../src/runtime/subql-node';
