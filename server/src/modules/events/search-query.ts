/** How many words of a query are searched (the rest are ignored), and how long each may be. */
const MAX_WORDS = 8;
const MAX_WORD_LENGTH = 60;

/**
 * Relevance classes, best first: every word in the title; every word in the title or the place (but not
 * all in the title); the rest (some word only in the description). Within a class, soonest first.
 */
export const RANKS = { title: 0, place: 1, anywhere: 2 } as const;
export type Rank = (typeof RANKS)[keyof typeof RANKS];

/** The words of a search text: letters and digits only (no query syntax gets through), lower case, unique. */
export function searchWords(q: string | undefined): string[] {
  if (!q) return [];
  const words = q.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.map((word) => word.slice(0, MAX_WORD_LENGTH)))].slice(0, MAX_WORDS);
}

/** Where the previous page ended: keyset paging continues after it without counting rows to skip. */
export interface SearchCursor {
  rank: Rank;
  /** The start in microseconds since 1970 (as the database keeps it: a Date would drop the microseconds). */
  startsAtMicros: string;
  id: string;
}

export function encodeCursor(cursor: SearchCursor): string {
  return Buffer.from(`${cursor.rank}.${cursor.startsAtMicros}.${cursor.id}`).toString('base64url');
}

/** The cursor of a previous answer, or undefined for anything else. */
export function decodeCursor(value: string): SearchCursor | undefined {
  const match = /^([0-2])\.(-?\d{1,18})\.([0-9a-f]{24})$/.exec(Buffer.from(value, 'base64url').toString());
  if (!match) return undefined;
  return { rank: Number(match[1]) as Rank, startsAtMicros: match[2]!, id: match[3]! };
}

/** `value` anywhere in the text, its LIKE wildcards taken literally. */
export function likePattern(value: string) {
  return `%${value.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
