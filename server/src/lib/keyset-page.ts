import { z } from 'zod';

/**
 * Pages of the lists our own client reads (docs/decisions/pagination.md): keyset paging, so a page
 * costs the same at row 20 and at row 100,000 and rows added meanwhile neither repeat nor vanish.
 *
 * A route declares `pageQuery(defaultLimit)` as (part of) its query schema; its repository reads
 * `limit + 1` rows after the decoded cursor in a fixed order ending with a unique column, and the
 * service answers `toPage(rows, limit, total, keyOf)`.
 */

/** One page: its items, how many the whole list holds, and the cursor of the next page (null on the last). */
export interface Page<T> {
  items: T[];
  total: number;
  nextCursor: string | null;
}

export const PAGE_LIMIT_MAX = 100;

/** The values a row is ordered by, in order (e.g. its creation time in microseconds, then its id). */
export type CursorKey = string[];

const CURSOR_MAX_LENGTH = 300;
const INVALID_CURSOR = 'cursor is not valid: use the nextCursor of a previous answer.';

export function encodeKeysetCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** The key a previous answer's `nextCursor` carries, or undefined for anything else (wrong arity included). */
export function decodeKeysetCursor(value: string, arity: number): CursorKey | undefined {
  if (value.length > CURSOR_MAX_LENGTH || !/^[\w-]+$/.test(value)) return undefined;
  try {
    const key: unknown = JSON.parse(Buffer.from(value, 'base64url').toString());
    if (!Array.isArray(key) || key.length !== arity || !key.every((part) => typeof part === 'string' && part.length <= 100)) return undefined;
    return key as CursorKey;
  } catch {
    return undefined;
  }
}

const blankToUndefined = (value: unknown) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value);

/**
 * Query fields `limit` (1..PAGE_LIMIT_MAX, default `defaultLimit`) and `cursor` (decoded to its key of
 * `arity` values). Spread into a route's query object: `z.object({ ...pageQuery(20, 2), status })`.
 */
export function pageQuery(defaultLimit: number, arity: number) {
  return {
    limit: z.preprocess(
      blankToUndefined,
      z
        .string({ error: 'limit must be a whole number.' })
        .trim()
        .regex(/^\d{1,4}$/, 'limit must be a whole number.')
        .transform(Number)
        .pipe(z.number().min(1, 'limit must be at least 1.').max(PAGE_LIMIT_MAX, `limit must be at most ${PAGE_LIMIT_MAX}.`))
        .optional()
        .transform((limit) => limit ?? defaultLimit)
        .meta({ description: `Items per page (default ${defaultLimit}, at most ${PAGE_LIMIT_MAX}).` }),
    ),
    cursor: z.preprocess(
      blankToUndefined,
      z
        .string({ error: 'cursor must be text.' })
        .transform((value, ctx) => {
          const key = decodeKeysetCursor(value, arity);
          if (!key) {
            ctx.addIssue({ code: 'custom', message: INVALID_CURSOR });
            return z.NEVER;
          }
          return key;
        })
        .optional()
        .meta({ description: 'The `nextCursor` of the previous page; absent for the first page.' }),
    ),
  };
}

/** `rows` read as `limit + 1` (the extra row only tells that a next page exists). */
export function toPage<T>(rows: T[], limit: number, total: number, keyOf: (row: T) => CursorKey): Page<T> {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, total, nextCursor: rows.length > limit && last !== undefined ? encodeKeysetCursor(keyOf(last)) : null };
}

/** The OpenAPI/response shape of a page of `item`. */
export const pageSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int().meta({ description: 'How many items the whole list holds.' }),
    nextCursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null on the last page.' }),
  });
