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

/** A throwaway database on the real PostgreSQL server (TEST_DATABASE_URL, else the local one). */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `tukio_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
