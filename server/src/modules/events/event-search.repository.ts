import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { events, searchWords } from '../../db/schema.js';
import { RANKS, type Rank, type SearchCursor, type SearchTsqueries, type WordTerms } from './search-query.js';

/**
 * Totals are counted exactly up to this many matches. Past it (as the planner estimates it) the estimate
 * stands in, flagged `totalIsEstimate`: counting a one-word town name's hundred thousand matches would cost
 * more than finding the page. A page that holds every match (no next page) is its own exact count.
 */
export const EXACT_TOTAL_MAX = 1000;

/** A query word beginning more known words than this is searched as a prefix instead of as a list of words. */
const MAX_EXPANSIONS = 20;
/** Similarity (pg_trgm, 0-1) a known word needs to stand in for a query word that begins none. */
const CORRECTION_SIMILARITY = 0.3;
/** Shorter words are not corrected: too many words sit within one typo of them. */
const CORRECTION_MIN_LENGTH = 4;
/** Known words tried in place of a typo: the closest only, as a second one mostly widens the search (kisumo: kisumu, not kisii). */
const CORRECTIONS_PER_WORD = 1;

export interface SearchFilters {
  /** The words as `tsquery` text (search-query.ts toTsqueries), or undefined for no text search. */
  tsquery?: SearchTsqueries | undefined;
  location?: string | undefined;
  from: Date;
  toExclusive?: Date | undefined;
  free?: boolean | undefined;
  limit: number;
  /** Rows to skip (page numbers); ignored after a cursor. */
  offset: number;
  /** Continue after this row of a previous page (keyset paging). */
  after?: SearchCursor | undefined;
}

export type SearchHit = SearchCursor;

export interface SearchPage {
  hits: SearchHit[];
  /** More matches follow the last hit. */
  hasMore: boolean;
  total: number;
  totalIsEstimate: boolean;
}

/** Microseconds since 1970 as text: exact for keyset paging, whatever precision the stored start has. */
const startsAtMicros = sql`(extract(epoch from ${events.startsAt}) * 1000000)::bigint::text`;

/** Rows of `db.execute` (node-postgres and PGlite both answer `{rows}`). */
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * Search over the generated tsvector columns: `title_vector` (title), `place_vector` (title and place) and
 * `search_vector` (everything), each with its GIN index. Every relevance class is its own query in start
 * order, so PostgreSQL serves it from an index either way: for a rare word the GIN index finds the few
 * matches (then sorted), for a common one the walk along approved events' start times stops after a page
 * of matches. The classes are chained with UNION ALL under one LIMIT, and Append runs its branches in order,
 * so a later class runs only when the earlier ones did not fill the page.
 */
export function createEventSearchRepository(db: Executor) {
  function eligible(filters: SearchFilters): SQL {
    // 'approved' written as a literal: the planner then matches the partial index on approved events.
    const parts: SQL[] = [sql`${events.status} = 'approved'`, sql`${events.startsAt} >= ${filters.from}`];
    if (filters.toExclusive) parts.push(sql`${events.startsAt} < ${filters.toExclusive}`);
    if (filters.free !== undefined) parts.push(sql`${events.isPaid} = ${!filters.free}`);
    if (filters.location) parts.push(sql`${events.location} ilike ${likePattern(filters.location)}`);
    return sql.join(parts, sql` and `);
  }

  /**
   * Each relevance class as a condition; a search without words is one class, every eligible event. The place
   * class also asks for some word in the place, the last one for some word in the description (vectors kept for
   * their statistics): without that the planner takes "matches, but not in the title" to be as common as the
   * matches, and for a word found only in titles (or, for the last class, only in titles and places, like
   * 'nairobi') it would walk every event in start order for matches there are none of.
   */
  function classes(tsquery: SearchTsqueries | undefined): { rank: Rank; condition: SQL }[] {
    if (!tsquery) return [{ rank: RANKS.title, condition: sql`true` }];
    // Parameters the planner sees (custom plans), so its estimates follow the words' statistics.
    const q = sql`${tsquery.all}::tsquery`;
    const any = sql`${tsquery.any}::tsquery`;
    return [
      { rank: RANKS.title, condition: sql`${events.titleVector} @@ ${q}` },
      { rank: RANKS.place, condition: sql`${events.locationVector} @@ ${any} and ${events.placeVector} @@ ${q} and not ${events.titleVector} @@ ${q}` },
      {
        rank: RANKS.anywhere,
        condition: sql`${events.descriptionVector} @@ ${any} and ${events.searchVector} @@ ${q} and not ${events.placeVector} @@ ${q}`,
      },
    ];
  }

  const matching = (filters: SearchFilters) =>
    filters.tsquery ? sql`${eligible(filters)} and ${events.searchVector} @@ ${filters.tsquery.all}::tsquery` : eligible(filters);

  /** The page's hits in (rank, start, id) order, and whether more follow. */
  async function ranked(filters: SearchFilters): Promise<{ hits: SearchHit[]; hasMore: boolean }> {
    const where = eligible(filters);
    const after = filters.after;
    const skip = after ? 0 : filters.offset;
    // One more than the page, to know whether another follows.
    const take = skip + filters.limit + 1;
    const branches = classes(filters.tsquery)
      .filter((rankClass) => !after || rankClass.rank >= after.rank)
      .map((rankClass) => {
        const continueAfter = after && rankClass.rank === after.rank ? after : undefined;
        const keyset = continueAfter
          ? sql` and (${events.startsAt}, ${events.id}) > (timestamptz 'epoch' + ${continueAfter.startsAtMicros}::bigint * interval '1 microsecond', ${continueAfter.id})`
          : sql``;
        return sql`(select ${events.id} as id, ${sql.raw(String(rankClass.rank))} as rank, ${startsAtMicros} as starts_at_micros from ${events}
          where ${where} and ${rankClass.condition}${keyset} order by ${events.startsAt}, ${events.id} limit ${take})`;
      });
    const result = await db.execute(sql`select id, rank, starts_at_micros from (${sql.join(branches, sql` union all `)}) ranked limit ${filters.limit + 1} offset ${skip}`);
    const found = rowsOf<{ id: string; rank: number; starts_at_micros: string | number }>(result).map((row) => ({
      id: row.id,
      rank: Number(row.rank) as Rank,
      startsAtMicros: String(row.starts_at_micros),
    }));
    return { hits: found.slice(0, filters.limit), hasMore: found.length > filters.limit };
  }

  /** The planner's estimate of the matches (column statistics), at the cost of planning, not running, a count. */
  async function estimate(filters: SearchFilters): Promise<number> {
    const result = await db.execute(sql`explain (format json) select 1 from ${events} where ${matching(filters)}`);
    const [row] = rowsOf<Record<string, unknown>>(result);
    const plan = row ? Object.values(row)[0] : undefined;
    const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as [{ Plan: { 'Plan Rows': number } }] | undefined;
    return Math.round(parsed?.[0]?.Plan['Plan Rows'] ?? 0);
  }

  /** Matches counted, but no further than `max + 1`. */
  async function countUpTo(filters: SearchFilters, max: number): Promise<number> {
    const result = await db.execute(sql`select count(*)::int as n from (select 1 from ${events} where ${matching(filters)} limit ${max + 1}) m`);
    return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
  }

  return {
    /** One page of matches in (rank, start, id) order, with the total (exact up to EXACT_TOTAL_MAX). */
    async page(filters: SearchFilters): Promise<SearchPage> {
      const { hits, hasMore } = await ranked(filters);
      const skip = filters.after ? 0 : filters.offset;
      // Every match is on this page or before it: the count is known without counting.
      if (!filters.after && !hasMore && (hits.length > 0 || skip === 0)) return { hits, hasMore, total: skip + hits.length, totalIsEstimate: false };
      const seen = filters.after ? hits.length + (hasMore ? 1 : 0) : skip + hits.length + (hasMore ? 1 : 0);
      const estimated = await estimate(filters);
      if (estimated <= EXACT_TOTAL_MAX) {
        const counted = await countUpTo(filters, EXACT_TOTAL_MAX);
        if (counted <= EXACT_TOTAL_MAX) return { hits, hasMore, total: counted, totalIsEstimate: false };
      }
      return { hits, hasMore, total: Math.max(estimated, seen, EXACT_TOTAL_MAX + 1), totalIsEstimate: true };
    },

    /**
     * What each query word stands for among the known words (search_words): the words it begins, in order;
     * itself as a prefix when it begins more than MAX_EXPANSIONS; when it begins none, the known words most
     * like it (pg_trgm similarity), e.g. naiorbi → nairobi. In the order given.
     */
    async terms(words: string[]): Promise<WordTerms[]> {
      if (words.length === 0) return [];
      const word = sql.raw('"search_words"."word"');
      // Byte-wise comparisons (text_pattern_ops) give the words beginning with a prefix from the index.
      const begins = sql`${word} ~>=~ typed.word and ${word} ~<~ (typed.word || chr(1114111))`;
      const result = await db.execute(sql`
        select typed.word as typed,
          array(select ${word} from ${searchWords} where ${begins} order by ${word} limit ${MAX_EXPANSIONS + 1}) as begun,
          case when length(typed.word) >= ${CORRECTION_MIN_LENGTH} and not exists (select 1 from ${searchWords} where ${begins}) then array(
            select ${word} from ${searchWords}
            where ${word} % typed.word and similarity(${word}, typed.word) >= ${CORRECTION_SIMILARITY}
            order by similarity(${word}, typed.word) desc, ${word} limit ${CORRECTIONS_PER_WORD}
          ) end as similar
        from unnest(${sql.param(words)}::text[]) with ordinality as typed(word, position)
        order by typed.position`);
      return rowsOf<{ typed: string; begun: string[]; similar: string[] | null }>(result).map((row): WordTerms => {
        if (row.begun.length > MAX_EXPANSIONS) return { word: row.typed, prefix: true };
        if (row.begun.length > 0) return { word: row.typed, lexemes: row.begun, corrected: false };
        const similar = row.similar ?? [];
        return { word: row.typed, lexemes: similar, corrected: similar.length > 0 };
      });
    },
  };
}

/** `value` anywhere in the text, its LIKE wildcards taken literally. */
export function likePattern(value: string) {
  return `%${value.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
