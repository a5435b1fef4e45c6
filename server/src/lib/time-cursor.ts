import { pageQuery, type CursorKey } from './keyset-page.js';

/** A whole number of microseconds (the cursor of a list ordered by a timestamp, then an id). */
const MICROS = /^-?\d{1,18}$/;

/**
 * `pageQuery` for lists ordered by (timestamp, id): the cursor's first value must also be the
 * microseconds the server wrote (db/keyset-sql.ts), so a forged one is a 400 naming `cursor`, not a
 * database error.
 */
export function timePageQuery(defaultLimit: number) {
  const { limit, cursor } = pageQuery(defaultLimit, 2);
  return {
    limit,
    cursor: cursor.refine((key: CursorKey | undefined) => key === undefined || MICROS.test(key[0] ?? ''), {
      message: 'cursor is not valid: use the nextCursor of a previous answer.',
    }),
  };
}
