import { sql, type Column, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { events } from './events.schema.js';
import { eventColumns, type EventRow } from './events.repository.js';
import { likePattern, type Rank, type SearchCursor } from './search-query.js';

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

export interface SearchFilters {
  /** The words as typed (search-query.ts searchWords); none for every eligible event. */
  words: string[];
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
  /** The words searched for when a typed word begins no known word and was replaced by the most similar one. */
  correctedQuery?: string;
  /** The hits' events with their ticket holders, read in the same statement. */
  rows?: SearchedEventRow[];
}

export type SearchedEventRow = EventRow & { registeredUsers: string[] };

/** The arguments of tukio_search, bound when the prepared statement runs. */
const arg = (name: keyof ReturnType<typeof searchArguments>) => sql.placeholder(name);

function searchArguments(filters: SearchFilters) {
  const after = filters.after;
  return {
    words: filters.words,
    from: filters.from,
    to: filters.toExclusive ?? null,
    free: filters.free ?? null,
    place: filters.location ? likePattern(filters.location) : null,
    limit: filters.limit,
    offset: filters.offset,
    afterRank: after?.rank ?? null,
    afterMicros: after?.startsAtMicros ?? null,
    afterId: after?.id ?? null,
  };
}

/**
 * Search over the generated tsvector columns (`title_vector`, `place_vector`, `search_vector` with their GIN
 * indexes, and the start-order index of approved events that carries the title and place vectors) through
 * tukio_search (drizzle/0019): the words' resolution to known words, the page in (rank, start, id) order, the
 * total and the hits' events with their ticket holders are one statement, one round trip, whatever the search.
 */
export function createEventSearchRepository(db: Executor, registeredUserIdsColumn: (eventId: Column | SQL) => SQL<string[]>) {
  // Prepared once per connection: only tukio_search's own queries are planned per search (with the words as constants).
  let prepared: ReturnType<typeof prepare> | undefined;
  function prepare() {
    const found = sql`tukio_search(${arg('words')}::text[], ${arg('from')}::timestamptz, ${arg('to')}::timestamptz, ${arg('free')}::boolean,
      ${arg('place')}::text, ${arg('limit')}::int, ${arg('offset')}::int, ${arg('afterRank')}::int, ${arg('afterMicros')}::bigint, ${arg('afterId')}::text,
      ${sql.raw(String(EXACT_TOTAL_MAX))}, ${sql.raw(String(MAX_EXPANSIONS))}, ${sql.raw(String(CORRECTION_SIMILARITY))}, ${sql.raw(String(CORRECTION_MIN_LENGTH))})
      with ordinality as found(hit_id, hit_rank, starts_at_micros, total, total_is_estimate, corrected_query, position)`;
    return db
      .select({
        hitRank: sql<number | null>`found.hit_rank`,
        startsAtMicros: sql<string | null>`found.starts_at_micros`,
        total: sql<string | number | null>`found.total`,
        totalIsEstimate: sql<boolean | null>`found.total_is_estimate`,
        correctedQuery: sql<string | null>`found.corrected_query`,
        event: { ...eventColumns, registeredUsers: registeredUserIdsColumn(events.id) },
      })
      .from(found)
      .leftJoin(events, sql`${events.id} = found.hit_id`)
      .orderBy(sql`found.position`)
      .prepare('events_search');
  }

  return {
    /** One page of matches in (rank, start, id) order, with the total (exact up to EXACT_TOTAL_MAX) and the events. */
    async page(filters: SearchFilters): Promise<SearchPage> {
      const rows = await (prepared ??= prepare()).execute(searchArguments(filters));
      // The hits, then one row with the total. A hit whose event is gone since has no row: left out.
      const summary = rows.at(-1);
      const found = rows.slice(0, -1).flatMap((row) => (row.event ? [{ row, event: row.event }] : []));
      const hits = found.map(({ row, event }) => ({ id: event.id, rank: Number(row.hitRank) as Rank, startsAtMicros: String(row.startsAtMicros) }));
      return {
        hits: hits.slice(0, filters.limit),
        hasMore: hits.length > filters.limit,
        total: Number(summary?.total ?? 0),
        totalIsEstimate: summary?.totalIsEstimate === true,
        ...(summary?.correctedQuery ? { correctedQuery: summary.correctedQuery } : {}),
        rows: found.slice(0, filters.limit).map(({ event }) => event),
      };
    },
  };
}
