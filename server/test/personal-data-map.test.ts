import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/database.js';
import { declaredColumns } from '../src/lib/personal-data.js';
import { personalDataMap } from '../src/personal-data-map.js';
import { pgliteTemplate } from './helpers/pglite-template.js';
import { createTestDatabaseUrl } from './helpers/test-database.js';

/*
 * The personal-data map (src/personal-data-map.ts, docs/decisions/data-rights.md) against the real, migrated
 * schema: a table or column that refers to a user or looks personal must be declared, or "Download my data"
 * (and erasure later) silently misses it. Read from pg_catalog and information_schema, so it holds on PGlite and
 * PostgreSQL alike (TEST_DB=postgres).
 */

/** A column holding a user's id by its name (some have no foreign key: hidden_by, checked_in_by, scanned_by). */
const USER_REFERENCE =
  /(^|_)user_id$|_by$|^(buyer|organi[sz]er|author|sender|recipient|reporter|admin|blocker|blocked|owner|member|payee|payer|proposer|staff|attendee|holder)_id$/;
/** A column whose name says it may hold personal data (`..._at` columns are times: email_verified_at is not an email). */
const LOOKS_PERSONAL =
  /(^|_)(phone|msisdn|email|name|username|avatar|image|ip|ip_address|device|user_agent|address|recipient|content|message|text|details|excerpt|title|answer|answers|note|notes|bio|comment|reply|account_number|paybill|till)(_|$)/;

interface Column {
  table: string;
  column: string;
}

const database: { handle?: DatabaseHandle; drop?: () => Promise<void> } = {};
let columns: Column[] = [];
let userForeignKeys: Column[] = [];

async function rows<T>(text: string): Promise<T[]> {
  return (await database.handle!.executeSql(text)).rows as T[];
}

beforeAll(async () => {
  const target = await createTestDatabaseUrl();
  database.drop = target.drop;
  database.handle = await openDatabase({ url: target.url, startFrom: target.url ? undefined : pgliteTemplate() });
  columns = await rows<Column>(`
    select c.table_name as "table", c.column_name as "column"
      from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
     where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
     order by c.table_name, c.ordinal_position`);
  userForeignKeys = await rows<Column>(`
    select source.relname as "table", a.attname as "column"
      from pg_constraint c
      join pg_class source on source.oid = c.conrelid
      join pg_namespace n on n.oid = source.relnamespace
      join pg_class target on target.oid = c.confrelid
      cross join lateral unnest(c.conkey) as k(attnum)
      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum
     where c.contype = 'f' and target.relname = 'users' and n.nspname = current_schema()
     order by 1, 2`);
}, 60_000);

afterAll(async () => {
  await database.handle?.close();
  await database.drop?.();
});

const mapped = new Map(personalDataMap.tables.map((table) => [table.table, table]));
const key = ({ table, column }: Column) => `${table}.${column}`;

describe('personal-data map', () => {
  it('finds the schema (the walk reads the migrated tables and the foreign keys to users)', () => {
    expect(columns.some((c) => c.table === 'users' && c.column === 'email')).toBe(true);
    expect(userForeignKeys.map(key)).toContain('tickets.user_id');
  });

  it('declares every column that refers to a user, as the user the row is about or as another user', () => {
    const byForeignKey = new Set(userForeignKeys.map(key));
    const references = columns.filter((c) => byForeignKey.has(key(c)) || USER_REFERENCE.test(c.column));
    const missing = references
      .filter((c) => {
        const table = mapped.get(c.table);
        return !table || !(c.column in table.subject || c.column in (table.otherUsers ?? {}));
      })
      .map((c) => `${key(c)} refers to a user${byForeignKey.has(key(c)) ? ' (foreign key to users.id)' : ''}: declare it in its module's personal-data.ts (subject or otherUsers)`);
    expect(missing, missing.join('\n')).toEqual([]);
  });

  it('declares every column that looks personal, or says why it is not', () => {
    const missing = columns
      .filter((c) => LOOKS_PERSONAL.test(c.column) && !c.column.endsWith('_at') && !personalDataMap.notPersonal[key(c)])
      .filter((c) => {
        const table = mapped.get(c.table);
        return !table || !declaredColumns(table).includes(c.column);
      })
      .map((c) => `${key(c)} looks personal: declare it in its module's personal-data.ts (personal, othersPersonal or secret) or in notPersonal with the reason`);
    expect(missing, missing.join('\n')).toEqual([]);
  });

  it('names only tables and columns that exist (a renamed column must be renamed in the map too)', () => {
    const existing = new Set(columns.map(key));
    const stale = [
      ...personalDataMap.tables.flatMap((table) => declaredColumns(table).map((column) => `${table.table}.${column}`)),
      ...Object.keys(personalDataMap.notPersonal),
    ].filter((name) => !existing.has(name));
    expect(stale, stale.map((name) => `${name} is in the personal-data map but not in the database`).join('\n')).toEqual([]);
  });

  it('says what erasure does to every table with a user reference or a personal column, and keeps only personal columns', () => {
    const referring = new Set(
      columns
        .filter((c) => userForeignKeys.some((fk) => key(fk) === key(c)) || USER_REFERENCE.test(c.column) || (LOOKS_PERSONAL.test(c.column) && !c.column.endsWith('_at') && !personalDataMap.notPersonal[key(c)]))
        .map((c) => c.table),
    );
    const problems = [
      ...[...referring]
        .filter((table) => !['delete', 'anonymise'].includes(mapped.get(table)?.onErase as string))
        .map((table) => `${table} refers to a user or holds personal data but has no erasure rule: set onErase ('delete' or 'anonymise') in its module's personal-data.ts`),
      ...personalDataMap.tables.flatMap((table) =>
        Object.keys(table.keptOnErase ?? {})
          .filter((column) => !(column in table.personal))
          .map((column) => `${table.table}.${column} is kept on erasure but is not one of its personal columns`),
      ),
      ...personalDataMap.tables
        .filter((table) => table.onErase === 'delete' && Object.keys(table.subject).length === 0)
        .map((table) => `${table.table} is deleted on erasure but has no subject column to find the user's rows by`),
    ];
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('finds a user’s rows in every table it exports through a declared column', () => {
    const unreachable = personalDataMap.tables
      .filter((table) => Object.keys(table.subject).length === 0 && Object.keys(table.personal).length > 0)
      .map((table) => `${table.table} holds personal columns but no subject column to find a user's rows by`);
    expect(unreachable, unreachable.join('\n')).toEqual([]);
  });
});
