import { and, desc, eq, gt, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { withheldColumns, type PersonalDataTable, type SubjectMatch } from '../../lib/personal-data.js';
import { dataExports } from './data-rights.schema.js';

export type DataExportRow = typeof dataExports.$inferSelect;
/** A row as the export shows it: column name → value (timestamps as Date, jsonb parsed). */
export type ExportedRow = Record<string, unknown>;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * The data-rights repository: its own table (data_exports), and the reads of every module's personal tables the
 * export makes. Those go by the names the personal-data map declares (the map is the contract between this
 * module and the owners of the tables, checked against the database by test/personal-data-map.test.ts), never
 * through another module's schema file.
 */
export function createDataExportsRepository(db: Executor) {
  return {
    async latestRequest(userId: string): Promise<DataExportRow | undefined> {
      const [row] = await db.select().from(dataExports).where(eq(dataExports.userId, userId)).orderBy(desc(dataExports.createdAt)).limit(1);
      return row;
    },

    /** A new request, unless the user made one since `since` (two tabs clicking at once make one). */
    async addRequest(userId: string, since: Date): Promise<DataExportRow | undefined> {
      // One look at a time per user (call inside a transaction): the lock is held until it commits.
      await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`data-export:${userId}`}))`);
      const [recent] = await db
        .select({ id: dataExports.id })
        .from(dataExports)
        .where(and(eq(dataExports.userId, userId), gt(dataExports.createdAt, since)))
        .limit(1);
      if (recent) return undefined;
      const [row] = await db.insert(dataExports).values({ id: newId(), userId }).returning();
      return row;
    },

    async find(id: string): Promise<DataExportRow | undefined> {
      const [row] = await db.select().from(dataExports).where(eq(dataExports.id, id));
      return row;
    },

    async markReady(id: string, archive: Buffer, tokenHash: string, readyAt: Date, expiresAt: Date): Promise<boolean> {
      const updated = await db
        .update(dataExports)
        .set({ status: 'ready', archive, archiveBytes: archive.length, tokenHash, readyAt, expiresAt })
        .where(and(eq(dataExports.id, id), eq(dataExports.status, 'requested')))
        .returning({ id: dataExports.id });
      return updated.length > 0;
    },

    /** The ready export behind a token hash, locked (call inside a transaction); undefined when there is none. */
    async lockByToken(tokenHash: string): Promise<DataExportRow | undefined> {
      const [row] = await db.select().from(dataExports).where(eq(dataExports.tokenHash, tokenHash)).for('update');
      return row;
    },

    /** The link was used: the ZIP goes, the row stays (it answers "already downloaded" and counts for the daily limit). */
    async markDownloaded(id: string, at: Date): Promise<void> {
      await db.update(dataExports).set({ status: 'downloaded', downloadedAt: at, archive: null }).where(eq(dataExports.id, id));
    },

    /** Ready exports past their expiry lose their ZIP; answers how many. */
    async expire(now: Date): Promise<number> {
      const expired = await db
        .update(dataExports)
        .set({ status: 'expired', archive: null })
        .where(and(eq(dataExports.status, 'ready'), lte(dataExports.expiresAt, now)))
        .returning({ id: dataExports.id });
      return expired.length;
    },

    /** Rows of requests older than `before` whose ZIP is gone: nothing left to answer for. */
    async prune(before: Date): Promise<void> {
      await db.delete(dataExports).where(and(lte(dataExports.createdAt, before), inArray(dataExports.status, ['downloaded', 'expired'])));
    },

    /** Requests still waiting for their ZIP (a job lost with its instance is queued again by the sweep). */
    async waiting(before: Date): Promise<string[]> {
      const rows = await db
        .select({ id: dataExports.id })
        .from(dataExports)
        .where(and(eq(dataExports.status, 'requested'), lte(dataExports.createdAt, before)));
      return rows.map((row) => row.id);
    },

    /** The columns each of `tables` has in the database, without generated search indexes (tsvector). */
    async exportableColumns(tables: string[]): Promise<Map<string, string[]>> {
      const rows = rowsOf<{ table_name: string; column_name: string }>(
        await db.execute(sql`
          select table_name, column_name from information_schema.columns
           where table_schema = current_schema() and table_name in ${tables} and data_type <> 'tsvector'
           order by table_name, ordinal_position`),
      );
      const columns = new Map<string, string[]>();
      for (const row of rows) columns.set(row.table_name, [...(columns.get(row.table_name) ?? []), row.column_name]);
      return columns;
    },

    /**
     * The rows of `table` about the user: those whose subject columns of kind `match` hold one of `values`
     * (their id, or emails and phones they gave). Withheld columns are never selected.
     */
    async subjectRows(table: PersonalDataTable, columns: string[], match: SubjectMatch, values: string[]): Promise<ExportedRow[]> {
      const subjectColumns = Object.entries(table.subject).filter(([, kind]) => kind === match).map(([column]) => column);
      if (subjectColumns.length === 0 || values.length === 0) return [];
      const withheld = withheldColumns(table);
      const shown = columns.filter((column) => !withheld.has(column));
      const matches: SQL[] = subjectColumns.map((column) =>
        match === 'email' ? sql`lower(${sql.identifier(column)}) in ${values.map((value) => value.toLowerCase())}` : sql`${sql.identifier(column)} in ${values}`,
      );
      const ordered = columns.includes('created_at');
      return rowsOf<ExportedRow>(
        await db.execute(sql`
          select ${sql.join(shown.map((column) => sql.identifier(column)), sql`, `)}
            from ${sql.identifier(table.table)}
           where ${sql.join(matches, sql` or `)}
           ${ordered ? sql`order by created_at` : sql``}`),
      );
    },
  };
}
