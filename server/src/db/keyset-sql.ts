import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { CursorKey } from '../lib/keyset-page.js';

/**
 * SQL pieces for keyset pages ordered by a timestamp then an id (lib/keyset-page.ts). The timestamp
 * travels in the cursor as whole microseconds since the epoch, PostgreSQL's own precision: a JS Date
 * keeps milliseconds only, so rows created within the same millisecond would repeat or be skipped.
 */

/** The column as microseconds since the epoch, as text (the cursor's first value). */
export const epochMicros = (column: SQLWrapper) => sql<string>`(extract(epoch from ${column}) * 1000000)::bigint::text`;

/** A cursor's microseconds back as a timestamp, exactly (integer interval arithmetic, no float). */
const fromEpochMicros = (micros: string) => sql`(timestamptz 'epoch' + ${micros}::bigint * interval '1 microsecond')`;

/**
 * The rows after `key` in the order (`time`, `id`) `direction`; undefined for the first page. The
 * row comparison matches the composite indexes on (…, time, id).
 */
export function afterTimeKey(direction: 'asc' | 'desc', time: SQLWrapper, id: SQLWrapper, key: CursorKey | undefined): SQL | undefined {
  if (!key) return undefined;
  const [micros = '0', lastId = ''] = key;
  return direction === 'desc' ? sql`(${time}, ${id}) < (${fromEpochMicros(micros)}, ${lastId})` : sql`(${time}, ${id}) > (${fromEpochMicros(micros)}, ${lastId})`;
}
