import { sql, type SQL } from 'drizzle-orm';

/**
 * The personal-data map (docs/decisions/data-rights.md): each module declares, in `modules/<m>/personal-data.ts`
 * beside its schema, which of its tables hold data about a user, how a user's rows are found and which columns
 * are personal. "Download my data" exports from it, "Delete my account" erases from it (onErase).
 * server/test/personal-data-map.test.ts checks it against the migrated database, so a new table or column that
 * refers to a user or looks personal fails the tests until it is declared here.
 */

/** What a personal column holds: erasure anonymises by kind (an email to a placeholder, free text to ''...). */
export type PersonalKind = 'name' | 'email' | 'phone' | 'image' | 'free-text' | 'device' | 'network' | 'answer';

/**
 * How a user's rows of the table are found. `id`: the column holds their user id. `email` / `phone`: the column
 * holds an address or number the user gave (one of the values of an `email` / `phone` personal column in their
 * rows found by id), for tables that were written before or without an account (contact form, SMS, mail).
 */
export type SubjectMatch = 'id' | 'email' | 'phone';

export interface PersonalDataTable {
  /** The table's SQL name. */
  table: string;
  /** One line for the export's README: what a row of this table is. */
  about: string;
  /** Columns whose value is the user the row is about; a row is theirs when any of them matches. */
  subject: Record<string, SubjectMatch>;
  /**
   * Columns holding another user's id, who is not the one the row is about (the moderator who hid it, the
   * organiser who scanned a ticket, the other side of a conversation): never used to find rows. Listed with
   * whether the export shows the id (an opaque id names a conversation but says nothing of that person).
   */
  otherUsers?: Record<string, 'exported' | 'withheld'>;
  /** Columns holding personal data, by kind: what erasure will clear or anonymise. */
  personal: Record<string, PersonalKind>;
  /** Personal data of someone else on the subject's row (an organiser's reply, the scanner's device name): never exported. */
  othersPersonal?: Record<string, PersonalKind>;
  /** Columns never exported: hashes of passwords and tokens, mail bodies that carry sign-in links. */
  secret?: string[];
  /**
   * What erasing a user does to their rows of this table (docs/decisions/data-rights.md, "Deleting an account"):
   * `delete` them, or `anonymise` them (the row keeps its place for others or for the money: its `personal`
   * columns become placeholders by kind, `erasedValue`, its `secret` columns are cleared). Every table states it,
   * so a new table cannot be left out of erasure (test/personal-data-map.test.ts).
   */
  onErase: 'delete' | 'anonymise';
  /**
   * Personal columns an anonymised row keeps, with why: the words of a forum post or chat message stay where
   * others answered them, under "Deleted user" (the author's name, email, phone and avatar go).
   */
  keptOnErase?: Record<string, string>;
}

/** One module's declaration. */
export interface PersonalDataDeclaration {
  tables: PersonalDataTable[];
  /**
   * Columns of this module's tables whose names look personal but are not (`table.column` → why), so the
   * map test knows they were looked at: a ticket type's `name`, an event's `location`.
   */
  notPersonal?: Record<string, string>;
}

/** The map every module's declaration composes into (db/personal-data-map.ts). */
export interface PersonalDataMap {
  tables: PersonalDataTable[];
  notPersonal: Record<string, string>;
}

export function composePersonalDataMap(declarations: PersonalDataDeclaration[]): PersonalDataMap {
  const tables = declarations.flatMap((declaration) => declaration.tables);
  const seen = new Set<string>();
  for (const { table } of tables) {
    if (seen.has(table)) throw new Error(`personal-data map: table ${table} is declared twice`);
    seen.add(table);
  }
  return { tables, notPersonal: Object.assign({}, ...declarations.map((declaration) => declaration.notPersonal ?? {})) as Record<string, string> };
}

/** Every column a table's declaration names (the map test compares them with the database). */
export function declaredColumns(table: PersonalDataTable): string[] {
  return [
    ...new Set([
      ...Object.keys(table.subject),
      ...Object.keys(table.otherUsers ?? {}),
      ...Object.keys(table.personal),
      ...Object.keys(table.othersPersonal ?? {}),
      ...(table.secret ?? []),
    ]),
  ];
}

/** How a column to erase is stored (information_schema): what placeholder it can take. */
export interface ErasedColumn {
  column: string;
  nullable: boolean;
  /** information_schema's data_type: `text`, `character varying`, `jsonb`... */
  dataType: string;
}

/**
 * The value an anonymised personal column takes, by kind, as SQL over the row (`rowId`: an expression unique per
 * row, its id). Names, emails and phones become unique placeholders (`deleted-<id>`, `deleted-<id>@invalid`), so
 * NOT NULL and unique constraints hold and no two erased rows collide; other kinds are emptied (null, or '' where
 * the column is NOT NULL). An empty value stays empty. JSON keeps only its `method` (a payout's destination
 * still says M-Pesa, Paybill or Till) and says it was erased.
 */
export function erasedValue(kind: PersonalKind | 'secret', column: ErasedColumn, rowId: SQL): SQL {
  const name = sql.identifier(column.column);
  if (column.dataType === 'jsonb' || column.dataType === 'json') {
    const emptied = sql`jsonb_strip_nulls(jsonb_build_object('method', ${name}::jsonb -> 'method', 'erased', true))`;
    return column.nullable ? sql`null` : column.dataType === 'json' ? sql`${emptied}::json` : emptied;
  }
  const placeholder = kind === 'name' || kind === 'phone' ? sql`'deleted-' || ${rowId}` : kind === 'email' ? sql`'deleted-' || ${rowId} || '@invalid'` : undefined;
  if (placeholder) return sql`case when ${name} is null then null else ${placeholder} end`;
  return column.nullable ? sql`null` : sql`''`;
}

/** Columns an export leaves out of a table's rows. */
export function withheldColumns(table: PersonalDataTable): Set<string> {
  const withheld = Object.entries(table.otherUsers ?? {}).filter(([, shown]) => shown === 'withheld').map(([column]) => column);
  return new Set([...(table.secret ?? []), ...Object.keys(table.othersPersonal ?? {}), ...withheld]);
}
