import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * TEST_DB=postgres runs a file against a throwaway database on TEST_DATABASE_URL's server;
 * otherwise each file gets an in-memory PGlite. Either way migrations run from scratch.
 */
export async function createTestDatabaseUrl(): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  if (process.env.TEST_DB !== 'postgres') return { url: undefined, drop: async () => undefined };
  if (!process.env.TEST_DATABASE_URL) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  return createPostgresDatabase();
}

/**
 * A throwaway database on the real PostgreSQL server (TEST_DATABASE_URL, else the local one). Never falls
 * back to PGlite: an unreachable server is a failure that says so.
 */
export async function createPostgresDatabase(prefix = 'tukio_test'): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
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
