import { saveFile } from '../../../lib/save-file';

/**
 * CSV for spreadsheets: every cell quoted (quotes doubled), and a cell a spreadsheet would run as a
 * formula (starting with = + - @, tab or carriage return) is prefixed with a single quote.
 */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export function toCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<unknown>>): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

export { saveFile };

/** A CSV text as a UTF-8 file (with a byte-order mark so spreadsheet apps read accents correctly). */
export function saveCsv(text: string, fileName: string): void {
  saveFile(new Blob(['\ufeff', text], { type: 'text/csv;charset=utf-8' }), fileName);
}
