import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { migrationsFolder } from '../../src/db/database.js';
import { applyDatabaseFunctions, DATABASE_FUNCTION_SOURCES, databaseFunctionSource } from '../../src/db/database-functions.js';

/*
 * Every in-memory test server starts from one migrated database instead of migrating an empty one: loading
 * the dump takes about 0.35 s where the migrations take about 1.6 s, and the API and browser suites start
 * more than a hundred servers. The dump is made once per run by the suites' global setup (server/test/global-setup.ts)
 * and named by a hash of the migrations and the database functions, so a changed schema never starts from a stale one.
 */
export const PGLITE_TEMPLATE_ENV = 'TUKIO_TEST_PGLITE_TEMPLATE';

/** The migrations and database functions, hashed: a template made for them is never used for others. */
export function schemaHash(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(migrationsFolder).filter((name) => name.endsWith('.sql')).sort()) hash.update(readFileSync(path.join(migrationsFolder, file)));
  hash.update(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json')));
  for (const source of DATABASE_FUNCTION_SOURCES) hash.update(databaseFunctionSource(source));
  return hash.digest('hex').slice(0, 16);
}

/** Makes the dump (or finds this schema's from an earlier run) and answers its file. */
export async function buildPgliteTemplate(): Promise<string> {
  const file = path.join(os.tmpdir(), `tukio-pglite-template-${schemaHash()}.tar`);
  if (existsSync(file)) return file;
  const client = new PGlite({ extensions: { pg_trgm } });
  try {
    await migrate(drizzle({ client }) as never, { migrationsFolder });
    await applyDatabaseFunctions((script) => client.exec(script));
    const dump = await client.dumpDataDir('none');
    // Written whole, then renamed: two runs at once never read half a file.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
  } finally {
    await client.close();
  }
  return file;
}

let template: Blob | undefined;
/** The dump the global setup made, read once per test process; none (migrate from empty) without it. */
export function pgliteTemplate(): Blob | undefined {
  const file = process.env[PGLITE_TEMPLATE_ENV];
  if (!file) return undefined;
  if (!template) {
    const bytes = readFileSync(file);
    const dump = new Blob([bytes]);
    // PGlite reads the dump with arrayBuffer(), which Node answers by streaming the blob's 44 MB in chunks and
    // joining them: about 0.3 s of CPU a test server (docs/decisions/test-speed.md). A copy of the bytes already
    // read is the same answer in milliseconds (a copy, so no server can change another's start).
    dump.arrayBuffer = async () => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    template = dump;
  }
  return template;
}
