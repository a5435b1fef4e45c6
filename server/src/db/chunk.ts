/** PostgreSQL caps bind parameters per statement (65,535): long id lists and multi-row inserts go in slices. */
export const ID_BATCH = 5000;

/** `items` in slices of at most `size`. */
export function chunk<T>(items: T[], size = ID_BATCH): T[][] {
  const slices: T[][] = [];
  for (let start = 0; start < items.length; start += size) slices.push(items.slice(start, start + size));
  return slices;
}
