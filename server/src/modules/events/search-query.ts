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

/**
 * What one query word stands for in the index: the known words it begins (or, when it begins none, the known
 * words most like it: a typo), or, when it begins too many to list, itself as a prefix.
 */
export type WordTerms = { word: string; lexemes: string[]; corrected: boolean } | { word: string; prefix: true };

const quoteLexeme = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** A search's words as `tsquery` text (cast, not parsed again): `all` of them must match, and `any` of them does. */
export interface SearchTsqueries {
  all: string;
  any: string;
}

/**
 * Each word matches any of its lexemes (or, for a prefix, any word it begins). Undefined when some word stands
 * for nothing, so nothing can match.
 */
export function toTsqueries(terms: WordTerms[]): SearchTsqueries | undefined {
  const parts: string[] = [];
  for (const term of terms) {
    if ('prefix' in term) parts.push(`${quoteLexeme(term.word)}:*`);
    else if (term.lexemes.length === 0) return undefined;
    else parts.push(term.lexemes.length === 1 ? quoteLexeme(term.lexemes[0]!) : `(${term.lexemes.map(quoteLexeme).join(' | ')})`);
  }
  return parts.length === 0 ? undefined : { all: parts.join(' & '), any: parts.join(' | ') };
}

/** The query as searched when a word was replaced by a known word like it, e.g. 'naiorbi' → 'nairobi'. */
export function correctedQuery(terms: WordTerms[]): string | undefined {
  if (!terms.some((term) => 'corrected' in term && term.corrected)) return undefined;
  return terms.map((term) => ('corrected' in term && term.corrected ? term.lexemes[0] : term.word)).join(' ');
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
