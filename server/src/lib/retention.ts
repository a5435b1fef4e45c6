import type { SQL } from 'drizzle-orm';

/**
 * Retention (docs/decisions/data-rights.md, "Retention"): a buyer's phone number, a gate device's name and the
 * like are needed to sell, pay, refund and admit, not for ever. A set number of days after an event ends
 * (PERSONAL_DATA_RETENTION_DAYS) they are erased from the event's rows, once per event; amounts, dates and
 * receipts stay (money rows are never deleted). Each module declares, beside its personal-data map entry, which
 * columns of which of its rows go, in `modules/<m>/retention.ts`; src/retention-map.ts composes them and
 * test/retention-map.test.ts fails when a phone, device or answer column of a table linked to an event is in no
 * declaration, so the list cannot drift from the schema.
 */

/** What the rows' condition may ask of the shredding run. */
export interface RetentionScope {
  /** The event being shredded. */
  eventId: string;
  /** True when the event in `eventIdColumn` has been shredded already (or is the one being shredded now). */
  shredded(eventIdColumn: SQL): SQL;
}

export interface RetainedRows {
  /** The table's SQL name. */
  table: string;
  /** One line for the privacy notice and the docs: which rows these are and what stays on them. */
  about: string;
  /**
   * The personal columns erased, each to the SQL value it becomes (`null`, `''` for a NOT NULL column, or a
   * value unique per row where a unique index needs one). Amounts, dates and receipts are never listed.
   */
  erase: Record<string, SQL>;
  /** The condition picking the event's rows (a `where`; the table's own columns unqualified). */
  rows(scope: RetentionScope): SQL;
}

/** One module's declaration. */
export interface RetentionDeclaration {
  rows: RetainedRows[];
  /** Personal columns of the module's event-linked tables deliberately kept past retention (`table.column` → why). */
  kept?: Record<string, string>;
}

export interface RetentionMap {
  rows: RetainedRows[];
  kept: Record<string, string>;
}

/** Several declarations may name the same table (the SMS outbox: reminders from checkout, offers from the waitlist). */
export function composeRetentionMap(declarations: RetentionDeclaration[]): RetentionMap {
  return {
    rows: declarations.flatMap((declaration) => declaration.rows),
    kept: Object.assign({}, ...declarations.map((declaration) => declaration.kept ?? {})) as Record<string, string>,
  };
}

/** Every `table.column` the map erases (the drift test compares them with the personal-data map). */
export function erasedColumns(map: RetentionMap): Set<string> {
  return new Set(map.rows.flatMap((rows) => Object.keys(rows.erase).map((column) => `${rows.table}.${column}`)));
}
