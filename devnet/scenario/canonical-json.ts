/**
 * Canonical JSON and the metadata hash now live in src/lib (shared with the app
 * services' launchpad); re-exported here so the scenario's importers are unchanged.
 */
export { canonicalStringify, metadataHash } from '../../src/lib/canonical-json';
export type { JsonValue } from '../../src/lib/canonical-json';
