import { sql } from 'drizzle-orm';
import { boolean, check, date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, createdAt, updatedAt, tsvector } from '../../db/columns.js';
import { users } from '../auth/auth.schema.js';

/** Who pays the platform fee (docs/decisions/fees.md): the organiser out of the ticket price, or the buyer on top of it. */
export const FEE_MODES = ['absorbed', 'on_top'] as const;

/**
 * The events module's tables: only its repositories write them (docs/decisions/server-boundaries.md, "Tables").
 */
export const events = pgTable(
  'events',
  {
    id: id().primaryKey(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    /** Form dates are naive wall-clock times; they are stored as that wall-clock time in UTC. */
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    /**
     * Only on a series (docs/decisions/event-series.md): the start of its latest active date, kept by the series
     * repository in the transaction that changes the dates. A series is upcoming while this has not passed,
     * although `starts_at` (its first date) has. Null on an event with one date.
     */
    lastDateAt: timestamp('last_date_at', { withTimezone: true }),
    location: text('location').notNull(),
    image: text('image'),
    /** `cancelled` is final (docs/decisions/refunds.md): no edit or moderation brings the event back. */
    status: text('status', { enum: ['pending', 'approved', 'cancelled'] }).notNull().default('pending'),
    cancelReason: text('cancel_reason'),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** The status the event had when it was cancelled: one cancelled while published stays public, one never published stays hidden. */
    cancelledFrom: text('cancelled_from', { enum: ['pending', 'approved'] }),
    isPaid: boolean('is_paid').notNull().default(false),
    /**
     * Whole shillings: M-Pesa only moves whole shillings. The cheapest ticket type's price (kept by a
     * trigger on ticket_types, drizzle/0012), so lists read it without a join.
     */
    ticketPrice: integer('ticket_price').notNull().default(0),
    /** The dearest ticket type's price (same trigger): lists say "from Ksh.X" when it differs. */
    ticketPriceMax: integer('ticket_price_max').notNull().default(0),
    /** Null means unlimited seats. */
    capacity: integer('capacity'),
    /**
     * Who pays the platform fee (docs/decisions/fees.md), the organiser's choice: `absorbed` (the default: it comes
     * out of the ticket price, so prices buyers see never change) or `on_top` (buyers pay it beside the price).
     */
    feeMode: text('fee_mode', { enum: FEE_MODES }).notNull().default('absorbed'),
    /**
     * What a holder gets back when they cancel their own tickets (@tukio/shared/refund-policy): none (the
     * default, also for events made before policies), full, or partial (`refund_percent` 1-99), until
     * `refund_until_hours` before the start.
     */
    refundPolicy: text('refund_policy', { enum: ['none', 'full', 'partial'] }).notNull().default('none'),
    refundPercent: integer('refund_percent'),
    refundUntilHours: integer('refund_until_hours').notNull().default(0),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    openedCount: integer('opened_count').notNull().default(0),
    /** Set by the importer: title + date + location, so a re-import skips what it already created. */
    importKey: text('import_key'),
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`setweight(to_tsvector('simple', coalesce(title, '')), 'A') || setweight(to_tsvector('simple', coalesce(location, '')), 'B') || setweight(to_tsvector('simple', coalesce(description, '')), 'C')`,
    ),
    /** The title's words: the first relevance class of search (modules/events/event-search.repository.ts). */
    titleVector: tsvector('title_vector').generatedAlwaysAs(sql`to_tsvector('simple', coalesce(title, ''))`),
    /** The title's and the place's words: the second class. */
    placeVector: tsvector('place_vector').generatedAlwaysAs(sql`to_tsvector('simple', coalesce(title, '') || ' ' || coalesce(location, ''))`),
    /**
     * The place's and the description's words alone (no index): their statistics tell the planner how rare a
     * place-only or description-only match is, and they are cheap to test row by row.
     */
    locationVector: tsvector('location_vector').generatedAlwaysAs(sql`to_tsvector('simple', coalesce(location, ''))`),
    descriptionVector: tsvector('description_vector').generatedAlwaysAs(sql`to_tsvector('simple', coalesce(description, ''))`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('events_status_starts_idx').on(t.status, t.startsAt),
    index('events_user_idx').on(t.userId),
    /** The admin and profile lists page by (start, id), all events or one organiser's by status (0017). */
    index('events_starts_id_idx').on(t.startsAt, t.id),
    index('events_user_status_starts_idx').on(t.userId, t.status, t.startsAt, t.id),
    index('events_location_lower_idx').on(sql`lower(${t.location})`),
    index('events_search_idx').using('gin', t.searchVector),
    index('events_title_search_idx').using('gin', t.titleVector),
    index('events_place_search_idx').using('gin', t.placeVector),
    /** Substrings of a title or place (ILIKE '%…%'): the admin list's search box, the place filter of search (0020). */
    index('events_title_trgm_idx').using('gin', t.title.op('gin_trgm_ops')),
    index('events_location_trgm_idx').using('gin', t.location.op('gin_trgm_ops')),
    /**
     * Search walks approved events in start order (id breaks ties, for keyset paging). drizzle/0019 rebuilds it
     * with `INCLUDE (title_vector)`, which this builder cannot express, so the title class reads the index only.
     */
    index('events_approved_starts_idx').on(t.startsAt, t.id).where(sql`${t.status} = 'approved'`),
    /** The few approved series whose first date has passed but a later one has not: found without walking start order. */
    index('events_approved_series_last_date_idx').on(t.lastDateAt).where(sql`${t.status} = 'approved' and ${t.lastDateAt} is not null`),
    uniqueIndex('events_import_key_idx').on(t.importKey),
    check('events_refund_policy_valid', sql`${t.refundPolicy} in ('none', 'full', 'partial')`),
    check(
      'events_refund_percent_valid',
      sql`(${t.refundPolicy} = 'partial' and ${t.refundPercent} between 1 and 99) or (${t.refundPolicy} <> 'partial' and ${t.refundPercent} is null)`,
    ),
    check('events_refund_until_hours_valid', sql`${t.refundUntilHours} between 0 and 720`),
  ],
);

/**
 * The dates of an event series (docs/decisions/event-series.md): a weekly comedy night, a three-day festival.
 * An event without rows here is a single-date event and behaves as before. Once an organiser adds a second
 * date, every date of the series is a row (the event's own date becomes the first), each with its own seats;
 * `events.starts_at` then follows the earliest active date. A date that sold tickets is never deleted: it is
 * cancelled (its buyers refunded), so its tickets keep pointing at it.
 */
export const eventDates = pgTable(
  'event_dates',
  {
    id: id().primaryKey(),
    eventId: id('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    /** Wall-clock times stored as UTC, like events.starts_at. */
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    /** Seats on this date; null: no limit of its own. */
    capacity: integer('capacity'),
    status: text('status', { enum: ['active', 'cancelled'] }).notNull().default('active'),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('event_dates_event_starts_idx').on(t.eventId, t.startsAt),
    check('event_dates_status_valid', sql`${t.status} in ('active', 'cancelled')`),
    check('event_dates_capacity_valid', sql`${t.capacity} is null or ${t.capacity} >= 1`),
    check('event_dates_ends_valid', sql`${t.endsAt} is null or ${t.endsAt} > ${t.startsAt}`),
  ],
);

/**
 * What an organiser proposed for an already published event (docs/decisions/events.md, "Edits of a published
 * event"): the changed fields as JSON, waiting for an administrator, while the event row itself keeps the
 * approved version, so its page, the lists and search stay as they were. One set per event: a new edit
 * replaces it. A set that moves the date or the place, or raises the price, pauses sales until it is decided.
 * A rejected set stays (with its reason, for the organiser) until the next edit or the organiser dismisses it.
 */
export const eventPendingChanges = pgTable(
  'event_pending_changes',
  {
    eventId: id('event_id')
      .primaryKey()
      .references(() => events.id, { onDelete: 'cascade' }),
    /** The proposed values of the changed fields only (`startsAt` as an ISO string). */
    changes: jsonb('changes').$type<Record<string, unknown>>().notNull(),
    /** The set moves the date or the place, or raises the price: no new holds or registrations meanwhile. */
    pausesSales: boolean('pauses_sales').notNull().default(false),
    status: text('status', { enum: ['pending', 'rejected'] }).notNull().default('pending'),
    proposedBy: id('proposed_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    proposedAt: timestamp('proposed_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    rejectReason: text('reject_reason'),
  },
  (t) => [
    index('event_pending_changes_status_idx').on(t.status, t.proposedAt),
    check('event_pending_changes_status_valid', sql`${t.status} in ('pending', 'rejected')`),
  ],
);

/**
 * Every word of events (the lexemes of `search_vector`), kept by triggers on events (drizzle/0015). Search
 * turns a query word into the words it begins (prefix index), or, when it begins none, into the words most
 * like it (pg_trgm), so 'Naiorbi' finds Nairobi. Words are never removed: one whose events are gone matches nothing.
 */
export const searchWords = pgTable('search_words', { word: text('word').primaryKey() }, (t) => [
  index('search_words_prefix_idx').on(t.word.op('text_pattern_ops')),
  index('search_words_trgm_idx').using('gin', t.word.op('gin_trgm_ops')),
]);

/** Daily counters feed the trending ranking without keeping one row per page view. */
export const eventDailyActivity = pgTable(
  'event_daily_activity',
  {
    eventId: id('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    opens: integer('opens').notNull().default(0),
    shares: integer('shares').notNull().default(0),
    registrations: integer('registrations').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.day] }), index('event_daily_activity_day_idx').on(t.day)],
);

export const eventShares = pgTable(
  'event_shares',
  {
    eventId: id('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    platform: text('platform', { enum: ['whatsapp', 'twitter', 'instagram'] }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.platform] })],
);
