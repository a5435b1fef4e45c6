import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/database.js';
import type { PersonalKind } from '../src/lib/personal-data.js';
import { erasedColumns } from '../src/lib/retention.js';
import { personalDataMap } from '../src/personal-data-map.js';
import { retentionMap } from '../src/retention-map.js';
import { pgliteTemplate } from './helpers/pglite-template.js';
import { createTestDatabaseUrl } from './helpers/test-database.js';

/*
 * The retention declarations (src/retention-map.ts, docs/decisions/data-rights.md "Retention") against the
 * personal-data map and the migrated schema: every phone, device or answer column (kinds from the map) of a table
 * linked to an event, by a foreign key to `events` or to such a table, is erased by some module's `retention.ts`
 * or kept with a reason. A new table of buyers' phones or checkout answers fails here until it is declared.
 */

/** The kinds an event's retention must erase. */
const ERASED_KINDS = new Set<PersonalKind>(['phone', 'device', 'answer']);

const database: { handle?: DatabaseHandle; drop?: () => Promise<void> } = {};
let linked = new Set<string>();
let columns = new Set<string>();

async function rows<T>(text: string): Promise<T[]> {
  return (await database.handle!.executeSql(text)).rows as T[];
}

beforeAll(async () => {
  const target = await createTestDatabaseUrl();
  database.drop = target.drop;
  database.handle = await openDatabase({ url: target.url, startFrom: target.url ? undefined : pgliteTemplate() });
  const keys = await rows<{ source: string; target: string }>(`
    select source.relname as source, target.relname as target
      from pg_constraint c
      join pg_class source on source.oid = c.conrelid
      join pg_class target on target.oid = c.confrelid
      join pg_namespace n on n.oid = source.relnamespace
     where c.contype = 'f' and n.nspname = current_schema()`);
  // Tables whose rows belong to an event: a foreign key to events, or to a table that has one (tickets → scans).
  linked = new Set(['events']);
  for (let grown = true; grown; ) {
    grown = false;
    for (const { source, target } of keys) {
      if (linked.has(target) && !linked.has(source)) {
        linked.add(source);
        grown = true;
      }
    }
  }
  linked.delete('events');
  columns = new Set(
    (await rows<{ table: string; column: string }>(`select table_name as "table", column_name as "column" from information_schema.columns where table_schema = current_schema()`)).map(
      (row) => `${row.table}.${row.column}`,
    ),
  );
}, 60_000);

afterAll(async () => {
  await database.handle?.close();
  await database.drop?.();
});

describe('the retention declarations', () => {
  it('erase or keep, with a reason, every phone, device and answer column of a table linked to an event', () => {
    const erased = erasedColumns(retentionMap);
    const declaredTables = new Set(retentionMap.rows.map((rows) => rows.table));
    const missing: string[] = [];
    for (const table of personalDataMap.tables) {
      if (!linked.has(table.table) && !declaredTables.has(table.table)) continue;
      for (const [column, kind] of Object.entries({ ...table.personal, ...table.othersPersonal })) {
        const name = `${table.table}.${column}`;
        if (ERASED_KINDS.has(kind) && !erased.has(name) && !(name in retentionMap.kept)) missing.push(`${name} (${kind})`);
      }
    }
    expect(missing, 'add these to the owning module’s retention.ts (erase, or kept with why)').toEqual([]);
    // The walk found the tables it should: a sanity check of the foreign-key walk itself.
    expect([...linked]).toEqual(expect.arrayContaining(['orders', 'payments', 'refunds', 'tickets', 'checkin_scans']));
  });

  it('name only columns the database has, that the personal-data map declares personal', () => {
    const personal = new Set(personalDataMap.tables.flatMap((table) => Object.keys({ ...table.personal, ...table.othersPersonal }).map((column) => `${table.table}.${column}`)));
    const named = [...erasedColumns(retentionMap), ...Object.keys(retentionMap.kept)];
    expect(named.filter((name) => !columns.has(name))).toEqual([]);
    expect(named.filter((name) => !personal.has(name))).toEqual([]);
  });
});
