import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { erasedValue, type ErasedColumn, type PersonalDataMap, type PersonalDataTable, type SubjectMatch } from '../../lib/personal-data.js';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** What an erasure did, per table (logged, and read by tests). */
export type ErasureReport = Record<string, { deleted: number; anonymised: number }>;

/**
 * Erases a user from every table the personal-data map names (docs/decisions/data-rights.md, "Deleting an
 * account"), inside the caller's transaction. Their rows are found as the export finds them: by their id, then by
 * the emails and phones those rows hold (the mail and SMS outboxes, the contact form). A table's `onErase` says
 * what happens: `delete` the rows, or `anonymise` them (personal columns to placeholders by kind, `erasedValue`;
 * secret columns cleared; `keptOnErase` columns left). Money rows are only ever anonymised, never deleted, and no
 * amount changes. Like the export, it goes by the names the map declares (checked against the database by
 * test/personal-data-map.test.ts), never through another module's schema.
 */
export async function eraseAccount(tx: Executor, map: PersonalDataMap, userId: string): Promise<ErasureReport> {
  // A confirmed payout destination may be anonymised only inside this erasure (migration 0035's trigger).
  await tx.execute(sql`select set_config('tukio.erasing_user', ${userId}, true)`);
  const tables = map.tables.filter((table) => Object.keys(table.subject).length > 0);
  const columns = await columnsOf(tx, tables.map((table) => table.table));

  // The addresses and numbers the user gave, read before anything is anonymised.
  const given = { email: new Set<string>(), phone: new Set<string>() };
  for (const table of tables) {
    for (const kind of ['email', 'phone'] as const) {
      const personal = Object.entries(table.personal).filter(([column, k]) => k === kind && columns.get(table.table)?.get(column)?.dataType !== 'jsonb').map(([column]) => column);
      if (personal.length === 0 || !matches(table, 'id', [userId])) continue;
      const found = rowsOf<Record<string, unknown>>(
        await tx.execute(sql`select ${sql.join(personal.map((column) => sql.identifier(column)), sql`, `)} from ${sql.identifier(table.table)} where ${matches(table, 'id', [userId])}`),
      );
      for (const row of found) for (const value of Object.values(row)) if (typeof value === 'string' && value !== '') given[kind].add(kind === 'email' ? value.toLowerCase() : value);
    }
  }

  const report: ErasureReport = {};
  for (const table of tables) {
    const where = [matches(table, 'id', [userId]), matches(table, 'email', [...given.email]), matches(table, 'phone', [...given.phone])].filter((clause): clause is SQL => !!clause);
    if (where.length === 0) continue;
    const condition = sql.join(where, sql` or `);
    if (table.onErase === 'delete') {
      const deleted = rowsOf<unknown>(await tx.execute(sql`delete from ${sql.identifier(table.table)} where ${condition} returning 1`)).length;
      report[table.table] = { deleted, anonymised: 0 };
      continue;
    }
    const known = columns.get(table.table) ?? new Map<string, ErasedColumn>();
    const rowId = known.has('id') ? sql`${sql.identifier('id')}` : sql`md5(random()::text)`;
    const kept = new Set(Object.keys(table.keptOnErase ?? {}));
    const changes = [
      ...Object.entries(table.personal).filter(([column]) => !kept.has(column)),
      ...(table.secret ?? []).map((column) => [column, 'secret'] as const),
    ]
      .map(([column, kind]) => ({ column: known.get(column), kind }))
      .filter((change): change is { column: ErasedColumn; kind: (typeof change)['kind'] } => !!change.column)
      .map(({ column, kind }) => sql`${sql.identifier(column.column)} = ${erasedValue(kind, column, rowId)}`);
    if (changes.length === 0) continue;
    const anonymised = rowsOf<unknown>(await tx.execute(sql`update ${sql.identifier(table.table)} set ${sql.join(changes, sql`, `)} where ${condition} returning 1`)).length;
    report[table.table] = { deleted: 0, anonymised };
  }
  return report;
}

/** The table's rows whose subject columns of kind `match` hold one of `values`; undefined when it has none. */
function matches(table: PersonalDataTable, match: SubjectMatch, values: string[]): SQL | undefined {
  const subject = Object.entries(table.subject).filter(([, kind]) => kind === match).map(([column]) => column);
  if (subject.length === 0 || values.length === 0) return undefined;
  return sql.join(
    subject.map((column) => (match === 'email' ? sql`lower(${sql.identifier(column)}) in ${values}` : sql`${sql.identifier(column)} in ${values}`)),
    sql` or `,
  );
}

/** Each table's columns with whether they take null and their type (what placeholder they can hold). */
async function columnsOf(tx: Executor, tables: string[]): Promise<Map<string, Map<string, ErasedColumn>>> {
  const rows = rowsOf<{ table_name: string; column_name: string; is_nullable: string; data_type: string }>(
    await tx.execute(sql`
      select table_name, column_name, is_nullable, data_type from information_schema.columns
       where table_schema = current_schema() and table_name in ${tables}`),
  );
  const columns = new Map<string, Map<string, ErasedColumn>>();
  for (const row of rows) {
    const table = columns.get(row.table_name) ?? new Map<string, ErasedColumn>();
    table.set(row.column_name, { column: row.column_name, nullable: row.is_nullable === 'YES', dataType: row.data_type });
    columns.set(row.table_name, table);
  }
  return columns;
}
