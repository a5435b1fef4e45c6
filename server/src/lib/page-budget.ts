/**
 * Pages of our own client stay under 100 KB whatever their rows hold (long texts in a script of three
 * bytes a character, avatars of up to 100 KB): a page stops early once its items reach PAGE_BYTES of
 * JSON, and `nextCursor` then continues right after the last item sent.
 */
export const PAGE_BYTES = 80_000;

/**
 * How many of `items` (the views of rows read as `limit + 1`, in order) the page sends: at most `limit`,
 * at least one, and no more than fit in `budget` bytes of JSON. Pass it to `toPage` as the limit.
 */
export function countWithinBytes<T>(items: readonly T[], limit: number, budget = PAGE_BYTES): number {
  let bytes = 0;
  let count = 0;
  for (const item of items.slice(0, limit)) {
    bytes += Buffer.byteLength(JSON.stringify(item));
    if (count > 0 && bytes > budget) break;
    count += 1;
  }
  return count;
}
