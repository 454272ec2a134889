/**
 * The store room: what every part that reads or writes the indexer's PostgreSQL store shares
 * (table names, identifier quoting, transactions, the check rows, shared SQL). The
 * rest-adapter, app services, reconciler and launcher import it; it imports none of them.
 */
export { tablesIn, type TableName, type Tables } from './tables';
export { IDENTIFIER_RE, escapeIdent, isIdentifier, quoteIdent } from './identifiers';
export { isUndefinedTable, withConnection, withTransaction, type TransactionMode } from './transaction';
export { PENDING_SQL } from './accruals';
export {
  METADATA_KEY,
  metadataInt,
  metadataTextSql,
  metadataValueSql,
  readMetadata,
  readMetadataValue,
  selectMetadata,
  selectMetadataValue,
  type MetadataKey,
  type MetadataQueryable,
  type MetadataRow,
} from './metadata';
export type {
  AccrualAnswer,
  I8CheckRow,
  InvariantCheckRead,
  InvariantCheckRow,
  SupplySnapshot,
  Svc20CheckRead,
  Svc20CheckRow,
} from './checks';
