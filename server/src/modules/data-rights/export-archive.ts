import { strToU8, zipSync, type Zippable } from 'fflate';
import type { PersonalDataTable } from '../../lib/personal-data.js';
import { toCsv } from '../tickets/index.js';
import type { ExportedRow } from './data-exports.repository.js';

export interface ExportedTable {
  table: PersonalDataTable;
  /** The columns shown, in the database's order (the CSV header, even with no rows). */
  columns: string[];
  rows: ExportedRow[];
}

/** A value as JSON keeps it: timestamps as ISO strings, jsonb as it is. */
const jsonValue = (value: unknown): unknown => (value instanceof Date ? value.toISOString() : value);
/** A value as a spreadsheet cell: objects (jsonb, arrays) as their JSON text. */
const cellValue = (value: unknown): string | number | null => {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'number' || typeof value === 'string') return value;
  return JSON.stringify(value);
};

function readme(username: string, generatedAt: Date, tables: ExportedTable[]): string {
  const list = tables.map(({ table, rows }) => `  ${table.table} (${rows.length}): ${table.about}`).join('\n');
  return [
    `Tukio: the data we hold about ${username}, made ${generatedAt.toISOString()}.`,
    '',
    'json/<table>.json: every row, machine readable (one file per table, {"table", "about", "rows"}).',
    'csv/<table>.csv: the same rows for a spreadsheet.',
    'Left out on purpose: password and link hashes, the text of emails and SMS (they hold one-time links),',
    'and other people’s data (messages others sent you, an organiser’s reply, who moderated or scanned).',
    '',
    list,
    '',
    `Tukio: data tunazohifadhi kukuhusu ${username}, iliyotengenezwa ${generatedAt.toISOString()}.`,
    'json/: kila safu kwa kompyuta; csv/: safu zile zile kwa jedwali (spreadsheet). Manenosiri, viungo vya mara',
    'moja na data ya watu wengine haviko humu.',
    '',
  ].join('\n');
}

/** The ZIP "Download my data" sends: a README, and each table as JSON and as CSV. */
export function buildExportArchive(input: { username: string; generatedAt: Date; tables: ExportedTable[] }): Buffer {
  const files: Zippable = { 'README.txt': strToU8(readme(input.username, input.generatedAt, input.tables)) };
  for (const { table, columns, rows } of input.tables) {
    const jsonRows = rows.map((row) => Object.fromEntries(columns.map((column) => [column, jsonValue(row[column])])));
    files[`json/${table.table}.json`] = strToU8(`${JSON.stringify({ table: table.table, about: table.about, rows: jsonRows }, null, 2)}\n`);
    files[`csv/${table.table}.csv`] = strToU8(toCsv(columns, rows.map((row) => columns.map((column) => cellValue(row[column])))));
  }
  return Buffer.from(zipSync(files, { level: 6, mtime: input.generatedAt }));
}
