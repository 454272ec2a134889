/** The embedded PostgreSQL moved to launcher/postgres.ts (npm start uses it too); tests keep importing it from here. */
export * from '../../launcher/postgres';
