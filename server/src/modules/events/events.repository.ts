import { and, asc, desc, eq, getTableColumns, gte, ilike, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { afterTimeKey, epochMicros } from '../../db/keyset-sql.js';
import type { CursorKey } from '../../lib/keyset-page.js';
import { eventDailyActivity, events, eventShares } from './events.schema.js';
import { utcDay } from './event-dates.js';
import { likePattern } from './search-query.js';
import type { SharePlatform } from './events.schemas.js';

/** Every column but the generated search vectors, which only the database needs. */
const {
  searchVector: _searchVector,
  titleVector: _titleVector,
  placeVector: _placeVector,
  locationVector: _locationVector,
  descriptionVector: _descriptionVector,
  ...baseColumns
} = getTableColumns(events);
type SearchVectors = 'searchVector' | 'titleVector' | 'placeVector' | 'locationVector' | 'descriptionVector';

/**
 * Plus the valid tickets issued (a void one holds no seat), counted in the same statement (an index-only probe per returned row;
 * Postgres runs it after ORDER BY/LIMIT), so showing seats costs no extra round trip.
 */
export const eventColumns = {
  ...baseColumns,
  // Written out in full: inside a one-table select Drizzle leaves column names unqualified.
  ticketsSold: sql<number>`(select count(*)::int from "tickets" where "tickets"."event_id" = "events"."id" and "tickets"."voided_at" is null)`.mapWith(Number),
  /** A series' dates (docs/decisions/event-series.md), earliest first; null for an event with one date. */
  seriesDates: sql<SeriesDate[] | null>`(select jsonb_agg(jsonb_build_object('id', d.id, 'startsAt', d.starts_at, 'endsAt', d.ends_at, 'capacity', d.capacity, 'status', d.status) order by d.starts_at, d.id)
    from "event_dates" d where d.event_id = "events"."id")`,
};

/** A series date as the event reads carry it (jsonb: times as ISO strings). */
export interface SeriesDate {
  id: string;
  startsAt: string;
  endsAt: string | null;
  capacity: number | null;
  status: 'active' | 'cancelled';
}

export type EventRow = Omit<typeof events.$inferSelect, SearchVectors> & { ticketsSold: number; seriesDates?: SeriesDate[] | null };
export type NewEvent = Omit<typeof events.$inferInsert, 'id' | SearchVectors> & { id?: string };
export type EventChanges = Partial<Omit<EventRow, 'id' | 'createdAt' | 'userId' | 'importKey' | 'status' | 'cancelReason' | 'cancelledAt' | 'cancelledFrom'>> & { status?: 'approved' | 'pending' };
export type StatusCounts = Record<'pending' | 'approved' | 'cancelled', number>;

/** Which events a paged list holds (GET /api/admin/events, /api/events/user/:userId/paged). */
export interface EventListFilter {
  status?: 'pending' | 'approved' | 'cancelled' | undefined;
  userId?: string | undefined;
  /** Part of the title or the place. */
  q?: string | undefined;
}

function filterEvents(filter: Omit<EventListFilter, 'status'>): SQL | undefined {
  return and(
    filter.userId ? eq(events.userId, filter.userId) : undefined,
    filter.q ? or(ilike(events.title, likePattern(filter.q)), ilike(events.location, likePattern(filter.q))) : undefined,
  );
}

export type ActivityKind = 'opens' | 'shares' | 'registrations';

/** Trending weights and half-life; docs/decisions/trending.md explains the choice. */
export const TRENDING = { openWeight: 1, shareWeight: 3, registrationWeight: 5, halfLifeDays: 3, windowDays: 14 } as const;

/**
 * Counts `n` opens, shares or registrations for an event into today's (UTC) activity row, which feeds
 * the trending ranking. The tickets module calls this with 'registrations' when tickets are issued;
 * pass its transaction as `db` to count in the same transaction.
 */
export async function recordActivity(db: Executor, eventId: string, kind: ActivityKind, n = 1, day = utcDay()): Promise<void> {
  if (!Number.isInteger(n) || n <= 0) return;
  const column = eventDailyActivity[kind];
  const counts = { opens: 0, shares: 0, registrations: 0, [kind]: n } as Record<ActivityKind, number>;
  await db
    .insert(eventDailyActivity)
    .values({ eventId, day, ...counts })
    .onConflictDoUpdate({
      target: [eventDailyActivity.eventId, eventDailyActivity.day],
      set: { [kind]: sql`${column} + ${n}` } as Partial<Record<ActivityKind, SQL>>,
    });
}

export function createEventsRepository(db: Executor) {
  const approved = eq(events.status, 'approved');
  /**
   * `wallNow`: lib/event-clock.ts nowAsWallClock(); an event that has started is no longer upcoming, a series
   * (docs/decisions/event-series.md) not while one of its active dates has not started.
   */
  const upcomingFrom = (wallNow: Date) =>
    and(
      approved,
      or(
        gte(events.startsAt, wallNow),
        and(
          gte(events.lastDateAt, wallNow),
          sql`exists (select 1 from "event_dates" d where d.event_id = ${events.id} and d.status = 'active' and d.starts_at >= ${wallNow.toISOString()}::timestamptz)`,
        ),
      ),
    );

  // The two reads behind every event page and cached search are prepared once per connection, which
  // spares PostgreSQL parsing and planning them on each request (about a quarter more requests/s).
  let byIdQuery: ReturnType<typeof prepareById> | undefined;
  let byIdsQuery: ReturnType<typeof prepareByIds> | undefined;
  function prepareById() {
    return db.select(eventColumns).from(events).where(eq(events.id, sql.placeholder('id'))).limit(1).prepare('events_by_id');
  }
  function prepareByIds() {
    return db
      .select(eventColumns)
      .from(events)
      .where(sql`${events.id} = any(${sql.placeholder('ids')}::varchar[])`)
      .prepare('events_by_ids');
  }

  return {
    /**
     * Which of these upload names (`<id>.<ext>`) some event's image still points at, stored as our path
     * (`/uploads/<name>`) or, from before paths were stored, as an absolute URL ending in it.
     */
    async imagesInUse(names: string[]): Promise<Set<string>> {
      if (names.length === 0) return new Set();
      const name = sql<string>`substring(${events.image} from '/uploads/([^/?#]+)$')`;
      const rows = await db
        .selectDistinct({ name })
        .from(events)
        .where(sql`${name} in (${sql.join(names.map((value) => sql`${value}`), sql`, `)})`);
      return new Set(rows.map((row) => row.name));
    },


    async findById(id: string): Promise<EventRow | undefined> {
      const [row] = await (byIdQuery ??= prepareById()).execute({ id });
      return row;
    },

    async findByIds(ids: string[]): Promise<EventRow[]> {
      if (ids.length === 0) return [];
      return (byIdsQuery ??= prepareByIds()).execute({ ids });
    },

    /** Every event (admin) or only approved ones, soonest first. */
    async list(options: { approvedOnly: boolean }): Promise<EventRow[]> {
      return db
        .select(eventColumns)
        .from(events)
        .where(options.approvedOnly ? approved : undefined)
        .orderBy(asc(events.startsAt), asc(events.id));
    },

    async listByStatus(status: 'approved' | 'pending'): Promise<EventRow[]> {
      return db.select(eventColumns).from(events).where(eq(events.status, status)).orderBy(asc(events.startsAt), asc(events.id));
    },

    /** Whether the account has created any event (any status): what makes it an organiser. */
    async hasAnyByUser(userId: string): Promise<boolean> {
      const [row] = await db.select({ id: events.id }).from(events).where(eq(events.userId, userId)).limit(1);
      return row !== undefined;
    },

    async listByUser(userId: string): Promise<EventRow[]> {
      return db.select(eventColumns).from(events).where(eq(events.userId, userId)).orderBy(asc(events.startsAt), asc(events.id));
    },

    /**
     * One page of events by date (`order`), then id, after `after`: `limit + 1` rows, each with its
     * start in microseconds for the next cursor.
     */
    async page(filter: EventListFilter, order: 'asc' | 'desc', after: CursorKey | undefined, limit: number): Promise<Array<EventRow & { startsAtMicros: string }>> {
      const by = order === 'desc' ? desc : asc;
      return db
        .select({ ...eventColumns, startsAtMicros: epochMicros(events.startsAt) })
        .from(events)
        .where(and(filterEvents(filter), filter.status ? eq(events.status, filter.status) : undefined, afterTimeKey(order, events.startsAt, events.id, after)))
        .orderBy(by(events.startsAt), by(events.id))
        .limit(limit + 1);
    },

    /** How many events the filter holds in each status (one grouped count, for the tabs' numbers and a page's total). */
    async countByStatus(filter: Omit<EventListFilter, 'status'>): Promise<StatusCounts> {
      const rows = await db.select({ status: events.status, n: sql<number>`count(*)::int`.mapWith(Number) }).from(events).where(filterEvents(filter)).groupBy(events.status);
      const counts: StatusCounts = { pending: 0, approved: 0, cancelled: 0 };
      for (const row of rows) counts[row.status] += row.n;
      return counts;
    },

    async upcoming(wallNow: Date, limit: number): Promise<EventRow[]> {
      return db.select(eventColumns).from(events).where(upcomingFrom(wallNow)).orderBy(asc(events.startsAt), asc(events.id)).limit(limit);
    },

    /**
     * Approved upcoming events with recent activity, best decayed score first (see TRENDING).
     * Only events with activity are scored, so the cost follows the activity table, not the catalogue.
     */
    async trending(wallNow: Date, limit: number, today = utcDay()): Promise<EventRow[]> {
      // The weights are our constants, written into the SQL as literals so Postgres knows their types.
      const [openWeight, shareWeight, registrationWeight, halfLifeDays, windowDays] = [
        TRENDING.openWeight,
        TRENDING.shareWeight,
        TRENDING.registrationWeight,
        TRENDING.halfLifeDays,
        TRENDING.windowDays,
      ].map((value) => sql.raw(String(Number(value))));
      const a = eventDailyActivity;
      const age = sql`(${today}::date - ${a.day})`;
      const recent = db
        .select({
          eventId: a.eventId,
          score: sql<number>`sum((${a.opens} * ${openWeight} + ${a.shares} * ${shareWeight} + ${a.registrations} * ${registrationWeight}) * power(0.5, ${age}::float8 / ${halfLifeDays}::float8))`.as(
            'score',
          ),
        })
        .from(a)
        .where(and(gte(a.day, sql`(${today}::date - ${windowDays})`), sql`${a.day} <= ${today}::date`))
        .groupBy(a.eventId)
        .as('recent');
      return db
        .select(eventColumns)
        .from(events)
        .innerJoin(recent, eq(recent.eventId, events.id))
        .where(upcomingFrom(wallNow))
        .orderBy(desc(recent.score), asc(events.startsAt), asc(events.id))
        .limit(limit);
    },

    /** Approved upcoming events at the same location (case-insensitive), soonest first. */
    async related(event: Pick<EventRow, 'id' | 'location'>, wallNow: Date, limit: number): Promise<EventRow[]> {
      return db
        .select(eventColumns)
        .from(events)
        .where(and(upcomingFrom(wallNow), sql`lower(${events.location}) = lower(${event.location})`, ne(events.id, event.id)))
        .orderBy(asc(events.startsAt), asc(events.id))
        .limit(limit);
    },

    async insert(event: NewEvent): Promise<EventRow> {
      const [row] = await db
        .insert(events)
        .values({ id: newId(), ...event })
        .returning(eventColumns);
      return row!;
    },

    /** Inserts unless an event with the same import key exists; undefined when it was skipped. */
    async insertImported(event: NewEvent & { importKey: string }): Promise<EventRow | undefined> {
      const [row] = await db
        .insert(events)
        .values({ id: newId(), ...event })
        .onConflictDoNothing({ target: events.importKey })
        .returning(eventColumns);
      return row;
    },

    /** Undefined when there is no such event, or it was cancelled: a cancelled event is final (`cancel`). */
    async update(id: string, changes: EventChanges): Promise<EventRow | undefined> {
      const [row] = await db
        .update(events)
        .set({ ...changes, updatedAt: new Date() })
        .where(and(eq(events.id, id), ne(events.status, 'cancelled')))
        .returning(eventColumns);
      return row;
    },

    /**
     * Marks the event cancelled, remembering the status it had (a published one stays public); undefined
     * when there is no such event or it is cancelled already. The caller holds the event row lock.
     */
    async cancel(id: string, reason: string, at: Date): Promise<EventRow | undefined> {
      const [row] = await db
        .update(events)
        .set({ status: 'cancelled', cancelReason: reason, cancelledAt: at, cancelledFrom: sql`${events.status}`, updatedAt: at })
        .where(and(eq(events.id, id), ne(events.status, 'cancelled')))
        .returning(eventColumns);
      return row;
    },

    async remove(id: string): Promise<boolean> {
      const rows = await db.delete(events).where(eq(events.id, id)).returning({ id: events.id });
      return rows.length > 0;
    },

    /** +1 open on an approved event; false when there is no such approved event. */
    async countOpen(id: string, day = utcDay()): Promise<boolean> {
      const rows = await db
        .update(events)
        .set({ openedCount: sql`${events.openedCount} + 1` })
        .where(and(eq(events.id, id), approved))
        .returning({ id: events.id });
      if (rows.length === 0) return false;
      await recordActivity(db, id, 'opens', 1, day);
      return true;
    },

    async countShare(id: string, platform: SharePlatform, day = utcDay()): Promise<Record<SharePlatform, number>> {
      await db
        .insert(eventShares)
        .values({ eventId: id, platform, count: 1 })
        .onConflictDoUpdate({ target: [eventShares.eventId, eventShares.platform], set: { count: sql`${eventShares.count} + 1` } });
      await recordActivity(db, id, 'shares', 1, day);
      const rows = await db.select({ platform: eventShares.platform, count: eventShares.count }).from(eventShares).where(eq(eventShares.eventId, id));
      const counts: Record<SharePlatform, number> = { whatsapp: 0, twitter: 0, instagram: 0 };
      for (const row of rows) counts[row.platform] = row.count;
      return counts;
    },
  };
}
