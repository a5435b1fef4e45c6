import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/database.js';
import { DATABASE_FUNCTION_SOURCES, databaseFunctionSource } from '../src/db/database-functions.js';
import { createTestDatabaseUrl } from './helpers/test-database.js';

/** Each function a source file defines, with the body between its dollar quotes. */
function definedInSources(): Map<string, string> {
  const defined = new Map<string, string>();
  for (const file of DATABASE_FUNCTION_SOURCES) {
    for (const match of databaseFunctionSource(file).matchAll(/CREATE OR REPLACE FUNCTION (\w+)\([\s\S]*?AS (\$\w*\$)([\s\S]*?)\2/g)) {
      expect(defined.has(match[1]!), `${match[1]} is defined in two sources`).toBe(false);
      defined.set(match[1]!, match[3]!);
    }
  }
  return defined;
}

const FUNCTIONS_IN_DATABASE = `SELECT p.proname AS name, p.prosrc AS body FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
  WHERE n.nspname = 'public' AND p.proname LIKE 'tukio%' ORDER BY 1`;

let database: Awaited<ReturnType<typeof createTestDatabaseUrl>>;
let handle: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabaseUrl();
  handle = await openDatabase({ url: database.url });
});
afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

describe('functions that run inside the database', () => {
  it('each has one source file beside its module, and the database runs that text', async () => {
    const sources = definedInSources();
    const { rows } = await handle.executeSql(FUNCTIONS_IN_DATABASE);
    const inDatabase = rows as Array<{ name: string; body: string }>;
    // A function a migration made without a source (or a source nothing applies) fails here.
    expect(inDatabase.map((row) => row.name).sort()).toEqual([...sources.keys()].sort());
    for (const row of inDatabase) expect(row.body, row.name).toBe(sources.get(row.name));
    expect(inDatabase.map((row) => row.name)).toContain('tukio_hold_priced_order');
  });

  it('applies the sources again at every start of a kept database without changing or breaking anything', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-functions-'));
    try {
      const first = await openDatabase({ dataDir });
      const before = (await first.executeSql(FUNCTIONS_IN_DATABASE)).rows;
      await first.close();
      const second = await openDatabase({ dataDir });
      try {
        expect((await second.executeSql(FUNCTIONS_IN_DATABASE)).rows).toEqual(before);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
