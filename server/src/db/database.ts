import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { applyDatabaseFunctions } from './database-functions.js';
import * as schema from './schema.js';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Repositories accept either, so a service can run several of them in one transaction. */
export type Executor = Database | Transaction;

export interface DatabaseHandle {
  db: Database;
  driver: 'pglite' | 'postgres';
  /** Raw SQL outside Drizzle (the job queue's): a multi-statement script when `values` is empty. */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount: number }>;
  close(): Promise<void>;
}

/** Works from src/db (tests, tsx) and dist/db (built) alike: both sit two levels under the package. */
export const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

/** pg_advisory_lock key taken while migrating (any constant; "tukio" in ASCII). */
const MIGRATION_LOCK_KEY = 0x74756b696f;

export interface DatabaseOptions {
  /** A postgres:// URL; when absent the embedded PGlite is used. */
  url?: string | undefined;
  /** PGlite data directory; undefined keeps the database in memory (tests). */
  dataDir?: string | undefined;
  poolSize?: number;
  /**
   * An in-memory PGlite starts from this dump of an already migrated database (PGlite's dumpDataDir) instead of
   * an empty one; the migrations then find nothing left to do. The test servers use it (server/test/helpers/pglite-template.ts).
   */
  startFrom?: Blob | undefined;
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10, connectionTimeoutMillis: 5000 });
    // An idle client losing its connection must not crash the process; the next query reconnects.
    pool.on('error', () => undefined);
    const db = drizzleNodePg({ client: pool, schema }) as unknown as Database;
    // Several instances starting together (compose replicas) apply the migrations one at a time, on the
    // connection that holds the lock: the first migrates, the others then find nothing left to do.
    const connection = await pool.connect();
    try {
      await connection.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      await migrateNodePg(drizzleNodePg({ client: connection }) as never, { migrationsFolder });
      await applyDatabaseFunctions((script) => connection.query(script));
    } finally {
      await connection.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
      connection.release();
    }
    const executeSql = async (text: string, values?: unknown[]) => {
      // Without values node-postgres sends the simple protocol, which runs a script of several statements.
      const answer: pg.QueryResult | pg.QueryResult[] = await pool.query(text, values?.length ? values : undefined);
      // A script answers each statement's result: the last one is the script's.
      const result = Array.isArray(answer) ? answer.at(-1) : answer;
      return { rows: (result?.rows ?? []) as unknown[], rowCount: result?.rowCount ?? 0 };
    };
    return { db, driver: 'postgres', executeSql, close: () => pool.end() };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  // pg_trgm: search corrects typos against known words by trigram similarity (drizzle/0015).
  const client = new PGlite({
    ...(options.dataDir ? { dataDir: options.dataDir } : options.startFrom ? { loadDataDir: options.startFrom } : {}),
    extensions: { pg_trgm },
  });
  const db = drizzlePglite({ client, schema }) as unknown as Database;
  await migratePglite(db as never, { migrationsFolder });
  await applyDatabaseFunctions((script) => client.exec(script));
  const executeSql = async (text: string, values?: unknown[]) => {
    // query() takes one statement; exec() runs a script and answers each statement's result.
    if (values?.length) {
      const result = await client.query(text, values, { rowMode: 'object' });
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    }
    const results = await client.exec(text);
    const last = results.at(-1);
    return { rows: last?.rows ?? [], rowCount: last?.affectedRows ?? last?.rows.length ?? 0 };
  };
  return { db, driver: 'pglite', executeSql, close: () => client.close() };
}

export function pgliteDataDir(dataDir: string): string {
  return path.join(dataDir, 'pglite');
}
