import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { createPostgresDatabase } from './helpers/test-database.js';

let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
beforeAll(async () => {
  database = await createPostgresDatabase();
});
afterAll(async () => {
  await database?.drop();
});

describe('migration journal', () => {
  it('dates every migration after the one before it (drizzle skips one dated before the last applied)', () => {
    const journal = JSON.parse(readFileSync(new URL('../drizzle/meta/_journal.json', import.meta.url), 'utf8')) as { entries: Array<{ idx: number; when: number; tag: string }> };
    const outOfOrder = journal.entries.filter((entry, index) => index > 0 && entry.when <= journal.entries[index - 1]!.when).map((entry) => entry.tag);
    expect(outOfOrder).toEqual([]);
    expect(journal.entries.map((entry) => entry.idx)).toEqual(journal.entries.map((_, index) => index));
  });
});

describe('migrations with several instances', () => {
  it('lets instances start together on a fresh PostgreSQL database: each migration applied once', async () => {
    // Four processes' worth of starts at once, as compose replicas start.
    const handles = await Promise.all(Array.from({ length: 4 }, () => openDatabase({ url: database.url, poolSize: 3 })));
    try {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ hash: string; n: number }>('SELECT hash, count(*)::int AS n FROM drizzle.__drizzle_migrations GROUP BY hash');
        expect(rows.length).toBeGreaterThan(10);
        expect(rows.filter((row) => row.n !== 1)).toEqual([]);
        // The lock is released: nothing holds it once the instances have started.
        const held = await client.query("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())");
        expect(held.rows[0].n).toBe(0);
      } finally {
        await client.end();
      }
    } finally {
      await Promise.all(handles.map((handle) => handle.close()));
    }
  });
});
