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

/** Saves a Blob as a download with the given file name. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before the URL goes away.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A CSV text as a UTF-8 file (with a byte-order mark so spreadsheet apps read accents correctly). */
export function saveCsv(text: string, fileName: string): void {
  saveFile(new Blob(['\ufeff', text], { type: 'text/csv;charset=utf-8' }), fileName);
}
