import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../../src/db/database.js';
import { schemaHash } from './pglite-template.js';

/**
 * Set by a suite's global setup to a database migrated once per run: the payment-service suite's TEST_DB=postgres
 * servers and the API suite's PGlite-pass tests on a real PostgreSQL (createMigratedPostgresDatabase) are then copies
 * of it (CREATE DATABASE ... TEMPLATE, a fraction of a second) instead of being migrated from empty (2 to 5 s on a
 * busy 2-core machine). The API suite's PostgreSQL pass never sets it: there the migrations themselves are tested
 * from empty.
 */
export const POSTGRES_TEMPLATE_ENV = 'TUKIO_TEST_POSTGRES_TEMPLATE';

/**
 * TEST_DB=postgres runs a file against a throwaway database on TEST_DATABASE_URL's server;
 * otherwise each file gets an in-memory PGlite. Either way migrations run from scratch.
 */
export async function createTestDatabaseUrl(): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  if (process.env.TEST_DB !== 'postgres') return { url: undefined, drop: async () => undefined };
  if (!process.env.TEST_DATABASE_URL) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  return createPostgresDatabase('tukio_test', process.env[POSTGRES_TEMPLATE_ENV]);
}

/**
 * A throwaway PostgreSQL database for a test whose subject is not the migrations (two instances on Redis, jobs
 * racing on one database, an outage): a copy of the migrated template when the suite's global setup made one (the
 * PGlite pass does), migrated from empty otherwise (the PostgreSQL pass, where the migrations are tested).
 */
export function createMigratedPostgresDatabase(): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  return createPostgresDatabase('tukio_test', process.env[POSTGRES_TEMPLATE_ENV]);
}

/**
 * A throwaway database on the real PostgreSQL server (TEST_DATABASE_URL, else the local one). Never falls
 * back to PGlite: an unreachable server is a failure that says so.
 */
export async function createPostgresDatabase(prefix = 'tukio_test', template?: string): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  } catch (error) {
    throw new Error(
      `This test needs a real PostgreSQL server and could not create a database on ${serverUrl.replace(/:[^:@/]*@/, ':***@')} ` +
        `(${error instanceof Error ? error.message : String(error)}). Start PostgreSQL (e.g. \`pg_ctlcluster 15 main start\`) or set TEST_DATABASE_URL.`,
      { cause: error },
    );
  } finally {
    await admin.end().catch(() => undefined);
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * The migrated database this schema's copies start from (POSTGRES_TEMPLATE_ENV), made once and kept across runs:
 * named by the same hash of the migrations and database functions as the PGlite template, so a changed schema
 * never starts from a stale one. Made under a temporary name and renamed when complete: two runs at once never
 * copy a half-migrated one.
 */
export async function buildPostgresTemplate(): Promise<string> {
  const name = `tukio_template_${schemaHash()}`;
  const serverUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount) return name;
    const partial = await createPostgresDatabase('tukio_template_partial');
    const database = await openDatabase({ url: partial.url, poolSize: 1 });
    await database.close();
    try {
      await admin.query(`ALTER DATABASE ${partial.name} RENAME TO ${name}`);
    } catch (error) {
      // Another run finished the same template first: use theirs.
      await partial.drop();
      if ((await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 0) throw error;
    }
    return name;
  } finally {
    await admin.end();
  }
}
