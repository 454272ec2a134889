/** The database's connection pieces, as a postgres:// URL and as the SubQuery node's DB_* variables. */

/** The pieces of a connection; the SubQuery node reads them as DB_HOST, DB_PORT... */
export interface PgConnection {
  url: string;
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
}

/** Parse a postgres:// URL into its pieces (defaults as libpq: port 5432, db = user). */
export function parseDatabaseUrl(url: string): PgConnection {
  const u = new URL(url);
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') {
    throw new Error(`not a postgres URL: ${u.protocol}`);
  }
  const user = decodeURIComponent(u.username) || 'postgres';
  const database = decodeURIComponent(u.pathname.replace(/^\//, '')) || user;
  return {
    url,
    host: u.hostname.replace(/^\[(.*)\]$/, '$1') || 'localhost',
    port: u.port ? Number(u.port) : 5432,
    user,
    password: decodeURIComponent(u.password),
    database,
  };
}

/** Build a postgres:// URL from pieces. */
export function buildDatabaseUrl(c: Omit<PgConnection, 'url'>): string {
  const host = c.host.includes(':') ? `[${c.host}]` : c.host;
  const auth = c.password
    ? `${encodeURIComponent(c.user)}:${encodeURIComponent(c.password)}`
    : encodeURIComponent(c.user);
  return `postgres://${auth}@${host}:${c.port}/${encodeURIComponent(c.database)}`;
}

/** The environment variables the SubQuery node reads for its database. */
export function subqlDbEnv(
  c: PgConnection,
): Record<'DB_HOST' | 'DB_PORT' | 'DB_USER' | 'DB_PASS' | 'DB_DATABASE', string> {
  return {
    DB_HOST: c.host,
    DB_PORT: String(c.port),
    DB_USER: c.user,
    DB_PASS: c.password,
    DB_DATABASE: c.database,
  };
}
