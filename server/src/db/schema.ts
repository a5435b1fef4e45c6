import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';

/** Ids are ObjectId-shaped (24 lowercase hex characters) because the client contract speaks `_id` strings. */
const id = (name = 'id') => varchar(name, { length: 24 });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

const tsvector = customType<{ data: string }>({
  dataType() {
    return 'tsvector';
  },
});

export const users = pgTable(
  'users',
  {
    id: id().primaryKey(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['user', 'admin'] }).notNull().default('user'),
    avatarImage: text('avatar_image'),
    isAvatarImageSet: boolean('is_avatar_image_set').notNull().default(false),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** Bumped on logout and password reset so every token issued before stops working. */
    tokenVersion: integer('token_version').notNull().default(0),
    /**
     * TR39 confusable skeleton of the username (modules/auth/account-names.ts), so no look-alike of a
     * taken name can be registered. Set by the users repository; rows from before it are filled at start.
     */
    usernameSkeleton: text('username_skeleton'),
    /** Moderation (docs/decisions/moderation.md): no posting, chatting, buying or new events until then. */
    suspendedUntil: timestamp('suspended_until', { withTimezone: true }),
    /** Moderation: a banned account cannot log in or post; its paid tickets stay valid. */
    bannedAt: timestamp('banned_at', { withTimezone: true }),
    /**
     * A guest buyer's shadow account (docs/decisions/ticket-types.md): made for a phone number that paid
     * without signing in, so orders, payments and tickets keep one owner. It cannot log in; its orders move
     * to a real account when that account claims them.
     */
    guestPhone: text('guest_phone'),
    /** The language mail and SMS to this account are written in (docs/decisions/languages.md). */
    language: text('language', { enum: ['en', 'sw'] }).notNull().default('en'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    uniqueIndex('users_username_skeleton_idx').on(t.usernameSkeleton),
    uniqueIndex('users_guest_phone_idx').on(t.guestPhone),
    check('users_language_valid', sql`${t.language} in ('en', 'sw')`),
  ],
);

export const authTokens = pgTable(
  'auth_tokens',
  {
    id: id().primaryKey(),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['verify-email', 'reset-password'] }).notNull(),
    /** Only a SHA-256 of the emailed token is stored, so a database leak does not leak working links. */
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('auth_tokens_hash_idx').on(t.tokenHash), index('auth_tokens_user_idx').on(t.userId, t.purpose)],
);

export const contactMessages = pgTable('contact_messages', {
  id: id().primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  subject: text('subject').notNull(),
  message: text('message').notNull(),
  createdAt: createdAt(),
});

export const events = pgTable(
  'events',
  {
    id: id().primaryKey(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    /** Form dates are naive wall-clock times; they are stored as that wall-clock time in UTC. */
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
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

/**
 * Money rows (orders, payments, and tickets bought through an order) are never deleted by deleting anything else:
 * their foreign keys RESTRICT, so deleting an event or user that has them fails instead of erasing receipts.
 */
export const orders = pgTable(
  'orders',
  {
    id: id().primaryKey(),
    eventId: id('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'restrict' }),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    quantity: integer('quantity').notNull(),
    amount: integer('amount').notNull(),
    status: text('status', {
      enum: ['pending', 'paid', 'failed', 'cancelled', 'expired', 'refund_due'],
    })
      .notNull()
      .default('pending'),
    phone: text('phone'),
    holdExpiresAt: timestamp('hold_expires_at', { withTimezone: true }),
    /** The promo code applied on the server when the seats were held, and what it took off `amount`. */
    promoCodeId: id('promo_code_id').references((): AnyPgColumn => promoCodes.id, { onDelete: 'restrict' }),
    discount: integer('discount').notNull().default(0),
    /** A guest buyer's optional email, for the ticket mail (their shadow account has none). */
    guestEmail: text('guest_email'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('orders_event_status_idx').on(t.eventId, t.status),
    index('orders_user_idx').on(t.userId),
    index('orders_promo_idx').on(t.promoCodeId, t.status),
    // A signed-in account claims the guest orders made with its verified email (docs/decisions/guest-checkout.md).
    index('orders_guest_email_idx').on(sql`lower(${t.guestEmail})`).where(sql`${t.guestEmail} is not null`),
    // The waiting room's adaptive rate counts recent holds still without a push every second (few rows: pending only).
    index('orders_pending_created_idx').on(t.createdAt).where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * The kinds of ticket an event sells (Early Bird, Regular, VIP): every event has at least one, the first
 * made for it by a trigger from its ticket_price. Sale times are wall-clock times like events.starts_at.
 */
export const ticketTypes = pgTable(
  'ticket_types',
  {
    id: id().primaryKey(),
    eventId: id('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Whole shillings; 0 only on a free event. */
    price: integer('price').notNull(),
    /** Null: limited only by the event's own capacity. */
    capacity: integer('capacity'),
    salesStart: timestamp('sales_start', { withTimezone: true }),
    salesEnd: timestamp('sales_end', { withTimezone: true }),
    maxPerOrder: integer('max_per_order').notNull().default(10),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('ticket_types_event_idx').on(t.eventId, t.position),
    check('ticket_types_price_valid', sql`${t.price} >= 0`),
    check('ticket_types_capacity_valid', sql`${t.capacity} is null or ${t.capacity} >= 1`),
    check('ticket_types_max_valid', sql`${t.maxPerOrder} between 1 and 10`),
    check('ticket_types_window_valid', sql`${t.salesStart} is null or ${t.salesEnd} is null or ${t.salesStart} < ${t.salesEnd}`),
  ],
);

/**
 * Discount codes of an event, applied on the server when seats are held. A use is an order holding or
 * having paid with the code; the hold function counts them under the event's row lock, so `max_uses`
 * holds under any concurrency.
 */
export const promoCodes = pgTable(
  'promo_codes',
  {
    id: id().primaryKey(),
    eventId: id('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    /** Stored upper-case; buyers may type it in any case. */
    code: text('code').notNull(),
    kind: text('kind', { enum: ['percent', 'fixed'] }).notNull(),
    /** Percent off (1-100), or whole shillings off each ticket it applies to. */
    value: integer('value').notNull(),
    maxUses: integer('max_uses'),
    validFrom: timestamp('valid_from', { withTimezone: true }),
    validUntil: timestamp('valid_until', { withTimezone: true }),
    /** The ticket types it applies to; null for all of them. */
    ticketTypeIds: varchar('ticket_type_ids', { length: 24 }).array(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('promo_codes_event_code_idx').on(t.eventId, t.code),
    check('promo_codes_kind_valid', sql`${t.kind} in ('percent', 'fixed')`),
    check('promo_codes_value_valid', sql`${t.value} >= 1 and (${t.kind} <> 'percent' or ${t.value} <= 100)`),
    check('promo_codes_max_uses_valid', sql`${t.maxUses} is null or ${t.maxUses} >= 1`),
    check('promo_codes_code_upper', sql`${t.code} = upper(${t.code})`),
  ],
);

/** What an order holds, per ticket type: the unit price then, and the share of the order's discount. Money rows: never deleted. */
export const orderItems = pgTable(
  'order_items',
  {
    id: id().primaryKey(),
    orderId: id('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    ticketTypeId: id('ticket_type_id')
      .notNull()
      // NO ACTION rather than RESTRICT: checked at the end of the statement, so deleting a free event
      // (cascading to its types and tickets together) still works, while deleting a sold type alone fails.
      .references(() => ticketTypes.id, { onDelete: 'no action' }),
    position: integer('position').notNull(),
    quantity: integer('quantity').notNull(),
    unitPrice: integer('unit_price').notNull(),
    discount: integer('discount').notNull().default(0),
  },
  (t) => [
    uniqueIndex('order_items_order_idx').on(t.orderId, t.position),
    index('order_items_type_idx').on(t.ticketTypeId),
    check('order_items_quantity_valid', sql`${t.quantity} >= 1`),
    check('order_items_discount_valid', sql`${t.discount} >= 0 and ${t.discount} <= ${t.unitPrice} * ${t.quantity}`),
  ],
);

export const payments = pgTable(
  'payments',
  {
    id: id().primaryKey(),
    orderId: id('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    eventId: id('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'restrict' }),
    checkoutRequestId: text('checkout_request_id').notNull(),
    merchantRequestId: text('merchant_request_id'),
    phone: text('phone').notNull(),
    amount: integer('amount').notNull(),
    status: text('status', { enum: ['pending', 'success', 'failed', 'cancelled'] })
      .notNull()
      .default('pending'),
    resultCode: integer('result_code'),
    resultDesc: text('result_desc'),
    mpesaReceiptNumber: text('mpesa_receipt_number'),
    transactionDate: text('transaction_date'),
    /**
     * When M-Pesa itself (an STK query) said this payment succeeded. A success recorded from a callback alone
     * (callbacks are unsigned) stays null until the reconciler's query agrees, or is voided when it contradicts.
     */
    providerConfirmedAt: timestamp('provider_confirmed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('payments_checkout_request_idx').on(t.checkoutRequestId),
    uniqueIndex('payments_receipt_idx').on(t.mpesaReceiptNumber),
    index('payments_user_idx').on(t.userId),
    index('payments_event_idx').on(t.eventId),
    // An order's payments (0022): found by order when a guest's order is claimed, when cancelled orders are refunded, and
    // when the waiting room counts holds still without a push.
    index('payments_order_idx').on(t.orderId),
    index('payments_status_created_idx').on(t.status, t.createdAt),
    /** A user's transactions, a page at a time, newest first (0017). */
    index('payments_user_created_idx').on(t.userId, t.createdAt, t.id),
    // The reconciler's second look: successes no STK query has confirmed yet (few rows: partial index).
    index('payments_unconfirmed_success_idx').on(t.createdAt).where(sql`${t.status} = 'success' and ${t.providerConfirmedAt} is null`),
  ],
);

/**
 * A success callback that M-Pesa's own answer (an STK query) contradicted: someone who knew the callback
 * URL's secret forged it, or M-Pesa reversed itself. Append-only; the payment keeps its row (its status
 * follows M-Pesa's answer), its tickets are voided ('payment_reversed') and the buyer and admins are told.
 */
export const paymentContradictions = pgTable(
  'payment_contradictions',
  {
    id: id().primaryKey(),
    paymentId: id('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'restrict' }),
    /** What the callback claimed: its receipt number (the payment row keeps it too) and amount. */
    claimedReceipt: text('claimed_receipt'),
    claimedAmount: integer('claimed_amount'),
    /** M-Pesa's answer to the STK query. */
    providerResultCode: integer('provider_result_code').notNull(),
    providerResultDesc: text('provider_result_desc').notNull(),
    /** Tickets issued on the claim and voided now (0 when the claim was caught before any were issued). */
    ticketsVoided: integer('tickets_voided').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('payment_contradictions_created_idx').on(t.createdAt), uniqueIndex('payment_contradictions_payment_idx').on(t.paymentId)],
);

export const tickets = pgTable(
  'tickets',
  {
    id: id().primaryKey(),
    eventId: id('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orderId: id('order_id').references(() => orders.id, { onDelete: 'restrict' }),
    /** Signed ticket code carried by the QR; verifiable offline with the public key. */
    code: text('code').notNull(),
    checkedInAt: timestamp('checked_in_at', { withTimezone: true }),
    checkedInBy: id('checked_in_by'),
    /** The gate device whose scan admitted the ticket (its staff-given name, e.g. "Gate B"); see checkin_scans. */
    checkedInDevice: text('checked_in_device'),
    /**
     * A void ticket is kept (its holder still sees it, and the audit counts it) but no longer admits anyone:
     * its event was cancelled, its holder cancelled it, it was transferred (replaced by another ticket), or the payment behind it was contradicted by M-Pesa.
     * Once void it stays void with its reason (a trigger refuses changing either).
     */
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    voidReason: text('void_reason', { enum: ['event_cancelled', 'self_cancel', 'transferred', 'payment_reversed'] }),
    /** The ticket this one replaced when it was transferred to its holder (same order, new code); one replacement at most. */
    transferredFrom: id('transferred_from').references((): AnyPgColumn => tickets.id, { onDelete: 'set null' }),
    ticketTypeId: id('ticket_type_id').references(() => ticketTypes.id, { onDelete: 'no action' }),
    /** This ticket's share of its payment (whole shillings; an order's tickets add up to its amount). Null before ticket types. */
    pricePaid: integer('price_paid'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('tickets_code_idx').on(t.code),
    uniqueIndex('tickets_transferred_from_idx').on(t.transferredFrom),
    check('tickets_void_reason_valid', sql`${t.voidReason} in ('event_cancelled', 'self_cancel', 'transferred', 'payment_reversed')`),
    check('tickets_void_together', sql`(${t.voidedAt} is null) = (${t.voidReason} is null)`),
    index('tickets_event_user_idx').on(t.eventId, t.userId),
    index('tickets_user_idx').on(t.userId),
    index('tickets_type_idx').on(t.ticketTypeId),
  ],
);

/**
 * Every door scan of a genuine ticket, from the live check-in and from gate devices syncing what they
 * scanned offline (docs/decisions/offline.md). The earliest scan (`scanned_at`, corrected for the
 * device's clock) admits the ticket and is copied to tickets.checked_in_at/_device; later ones are
 * flagged duplicates. A retried sync finds its row by (ticket, device, the device's own time) and
 * changes nothing.
 */
export const checkinScans = pgTable(
  'checkin_scans',
  {
    id: id().primaryKey(),
    eventId: id('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    ticketId: id('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    /** The name staff gave the device ("Gate B"); null for scans from before devices had names. */
    device: text('device'),
    /** When the scan happened on the server's clock (the device's time corrected by its measured offset). */
    scannedAt: timestamp('scanned_at', { withTimezone: true }).notNull(),
    /** The scan time as the device sent it: with the device and ticket, what makes a retry recognisable. */
    deviceScannedAt: timestamp('device_scanned_at', { withTimezone: true }).notNull(),
    scannedBy: id('scanned_by'),
    /** Sent by a device syncing offline scans (false: the live check-in). */
    offline: boolean('offline').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('checkin_scans_retry_idx').on(t.ticketId, t.device, t.deviceScannedAt),
    index('checkin_scans_event_idx').on(t.eventId, t.scannedAt),
  ],
);

const SMS_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'undelivered', 'failed'] as const;

/**
 * The SMS outbox (docs/decisions/sms.md): one row per message to one phone, sent by whichever instance
 * claims it. `dedupe_key` makes "once" hold across instances and reruns (a reminder per ticket holder and
 * event, say): a second insert with the same key changes nothing. Africa's Talking's messageId is unique
 * and keys the delivery reports.
 */
export const smsMessages = pgTable(
  'sms_messages',
  {
    id: id().primaryKey(),
    dedupeKey: text('dedupe_key'),
    purpose: text('purpose').notNull(),
    /** The recipient as Africa's Talking takes it: +2547XXXXXXXX. */
    phone: text('phone').notNull(),
    message: text('message').notNull(),
    status: text('status', { enum: SMS_STATUSES }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    providerMessageId: text('provider_message_id'),
    /** Africa's Talking's words: the send statusCode/status, then the delivery report's status and failure reason. */
    providerStatus: text('provider_status'),
    cost: text('cost'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('sms_status_valid', sql`${t.status} in ('queued', 'sending', 'sent', 'delivered', 'undelivered', 'failed')`),
    uniqueIndex('sms_dedupe_idx').on(t.dedupeKey),
    uniqueIndex('sms_provider_message_idx').on(t.providerMessageId),
    index('sms_status_next_idx').on(t.status, t.nextAttemptAt),
    index('sms_phone_idx').on(t.phone, t.createdAt),
  ],
);

const MAIL_STATUSES = ['queued', 'sending', 'sent', 'failed'] as const;

/**
 * The mail outbox (docs/decisions/scale-out.md, "Mail"): ticket and account emails written with the action
 * that causes them and sent by a job on whichever instance claims them. `kind` names how `body` becomes a
 * message at send time ('mail': it already is one; 'tickets': the ticket mail, whose QR images are drawn
 * then). The body, which may hold a one-time link, is dropped once the mail is sent; the row is pruned later.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: id().primaryKey(),
    purpose: text('purpose').notNull(),
    recipient: text('recipient').notNull(),
    kind: text('kind').notNull().default('mail'),
    body: jsonb('body'),
    status: text('status', { enum: MAIL_STATUSES }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('mail_status_valid', sql`${t.status} in ('queued', 'sending', 'sent', 'failed')`),
    index('mail_outbox_status_next_idx').on(t.status, t.nextAttemptAt),
    index('mail_outbox_updated_idx').on(t.updatedAt),
  ],
);

const WAITLIST_STATUSES = ['waiting', 'offered', 'accepted', 'expired', 'left', 'closed'] as const;

/**
 * The waitlist of a sold-out event, first come first served. A freed seat is offered to the first
 * person `waiting`: the entry becomes `offered` until `offer_expires_at`, and while the offer is live its
 * seats count as taken for everyone but its holder (the hold function and the seat counts read it). The
 * offer ends `accepted` when its holder gets a ticket for the event (a trigger), `expired` when its time
 * runs out (the seats pass on), `left` when the person leaves, `closed` when the event is cancelled or over.
 */
export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    id: id().primaryKey(),
    eventId: id('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Seats wanted; an offer may hold fewer when fewer were freed (`offered_quantity`). */
    quantity: integer('quantity').notNull(),
    status: text('status', { enum: WAITLIST_STATUSES }).notNull().default('waiting'),
    offeredQuantity: integer('offered_quantity'),
    offeredAt: timestamp('offered_at', { withTimezone: true }),
    offerExpiresAt: timestamp('offer_expires_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('waitlist_status_valid', sql`${t.status} in ('waiting', 'offered', 'accepted', 'expired', 'left', 'closed')`),
    check('waitlist_quantity_valid', sql`${t.quantity} between 1 and 10`),
    check(
      'waitlist_offer_together',
      sql`(${t.status} = 'waiting' and ${t.offeredAt} is null) or (${t.status} <> 'waiting' and ${t.status} <> 'offered') or (${t.status} = 'offered' and ${t.offeredAt} is not null and ${t.offerExpiresAt} is not null and ${t.offeredQuantity} between 1 and ${t.quantity})`,
    ),
    // One open place per person and event (waiting or offered); a person may join again after leaving.
    uniqueIndex('waitlist_open_idx').on(t.eventId, t.userId).where(sql`${t.status} in ('waiting', 'offered')`),
    index('waitlist_event_status_idx').on(t.eventId, t.status, t.createdAt),
    index('waitlist_user_idx').on(t.userId),
  ],
);

/** As @tukio/shared/internal-refunds says them (refunds.responses.ts checks that they agree). */
const REFUND_REASONS = ['sold_out', 'event_cancelled', 'late_payment', 'self_cancel', 'admin'] as const;
const REFUND_METHODS = ['reversal', 'b2c'] as const;
const REFUND_STATUSES = ['due', 'sent', 'succeeded', 'failed'] as const;

/**
 * The refund ledger (docs/decisions/refunds.md): money going back to a payer. Append-only like the other
 * money rows: nothing deletes a refund, an attempt or a transition (foreign keys RESTRICT, and triggers
 * refuse deletes), and a refund never takes more than what is left of its payment.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: id().primaryKey(),
    orderId: id('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    paymentId: id('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'restrict' }),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    eventId: id('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'restrict' }),
    /** Whole shillings. */
    amount: integer('amount').notNull(),
    /** The payer's MSISDN (2547XXXXXXXX), copied from the payment. */
    phone: text('phone').notNull(),
    reason: text('reason', { enum: REFUND_REASONS }).notNull(),
    method: text('method', { enum: REFUND_METHODS }).notNull(),
    status: text('status', { enum: REFUND_STATUSES }).notNull().default('due'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** The M-Pesa TransactionID of the refund once it succeeded. */
    receipt: text('receipt'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('refunds_amount_positive', sql`${t.amount} > 0`),
    uniqueIndex('refunds_receipt_idx').on(t.receipt),
    index('refunds_status_next_idx').on(t.status, t.nextAttemptAt),
    index('refunds_payment_idx').on(t.paymentId),
    index('refunds_order_idx').on(t.orderId),
    index('refunds_event_idx').on(t.eventId),
    /** The admin refunds list, a page at a time, newest first, all or one status (0017). */
    index('refunds_created_idx').on(t.createdAt, t.id),
    index('refunds_status_created_idx').on(t.status, t.createdAt, t.id),
  ],
);

/** One row per request sent to M-Pesa for a refund; Daraja's answers are keyed by its unique ids. */
export const refundAttempts = pgTable(
  'refund_attempts',
  {
    id: id().primaryKey(),
    refundId: id('refund_id')
      .notNull()
      .references(() => refunds.id, { onDelete: 'restrict' }),
    /** Ours: `tukio-<refundId>-<n>`; Daraja refuses a repeated one, so a request is never paid twice. */
    originatorConversationId: text('originator_conversation_id').notNull(),
    /** Daraja's, once it accepted the request. */
    conversationId: text('conversation_id'),
    method: text('method', { enum: REFUND_METHODS }).notNull(),
    status: text('status', { enum: ['sent', 'succeeded', 'failed'] }).notNull().default('sent'),
    resultCode: text('result_code'),
    resultDesc: text('result_desc'),
    transactionId: text('transaction_id'),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('refund_attempts_originator_idx').on(t.originatorConversationId),
    uniqueIndex('refund_attempts_conversation_idx').on(t.conversationId),
    uniqueIndex('refund_attempts_transaction_idx').on(t.transactionId),
    index('refund_attempts_refund_idx').on(t.refundId),
    index('refund_attempts_status_sent_idx').on(t.status, t.sentAt),
  ],
);

/** A refund's history: one row per change of its status (from null at creation). */
export const refundTransitions = pgTable(
  'refund_transitions',
  {
    id: id().primaryKey(),
    refundId: id('refund_id')
      .notNull()
      .references(() => refunds.id, { onDelete: 'restrict' }),
    fromStatus: text('from_status', { enum: REFUND_STATUSES }),
    toStatus: text('to_status', { enum: REFUND_STATUSES }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    detail: text('detail'),
  },
  (t) => [index('refund_transitions_refund_idx').on(t.refundId, t.at)],
);

export const comments = pgTable(
  'comments',
  {
    id: id().primaryKey(),
    eventId: id('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    /** Hidden by a moderator (docs/decisions/moderation.md): others see a placeholder, the author the text and the reason. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    hiddenReason: text('hidden_reason'),
    hiddenBy: id('hidden_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('comments_event_idx').on(t.eventId, t.createdAt, t.id)],
);

export const reviews = pgTable(
  'reviews',
  {
    id: id().primaryKey(),
    eventId: id('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    rating: integer('rating').notNull(),
    /** The organiser's one public answer to the review (docs/decisions/moderation.md); set once, never edited. */
    organiserReply: text('organiser_reply'),
    organiserRepliedAt: timestamp('organiser_replied_at', { withTimezone: true }),
    /** Hidden by a moderator (docs/decisions/moderation.md): others see a placeholder, the author the text and the reason. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    hiddenReason: text('hidden_reason'),
    hiddenBy: id('hidden_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('reviews_event_user_idx').on(t.eventId, t.userId), index('reviews_event_created_idx').on(t.eventId, t.createdAt, t.id)],
);

export const forumThreads = pgTable(
  'forum_threads',
  {
    id: id().primaryKey(),
    eventId: id('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    /** Hidden by a moderator (docs/decisions/moderation.md): others see a placeholder, the author the text and the reason. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    hiddenReason: text('hidden_reason'),
    hiddenBy: id('hidden_by'),
    createdAt: createdAt(),
  },
  (t) => [index('forum_threads_event_idx').on(t.eventId, t.createdAt, t.id)],
);

export const forumPosts = pgTable(
  'forum_posts',
  {
    id: id().primaryKey(),
    threadId: id('thread_id')
      .notNull()
      .references(() => forumThreads.id, { onDelete: 'cascade' }),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    parentId: id('parent_id'),
    content: text('content').notNull(),
    /** Net score (up minus down), kept in step with post_votes inside one transaction. */
    upvotes: integer('upvotes').notNull().default(0),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** Hidden by a moderator (docs/decisions/moderation.md): others see a placeholder, the author the text and the reason. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    hiddenReason: text('hidden_reason'),
    hiddenBy: id('hidden_by'),
    createdAt: createdAt(),
  },
  (t) => [
    index('forum_posts_thread_idx').on(t.threadId, t.createdAt),
    // A post's replies are read a page at a time, newest first (forums.repository.ts `replyPage`).
    index('forum_posts_parent_idx').on(t.parentId, t.createdAt, t.id),
    index('forum_posts_thread_top_idx').on(t.threadId, t.createdAt, t.id).where(sql`${t.parentId} is null`),
  ],
);

export const postVotes = pgTable(
  'post_votes',
  {
    postId: id('post_id')
      .notNull()
      .references(() => forumPosts.id, { onDelete: 'cascade' }),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    value: integer('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.userId] })],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: id().primaryKey(),
    senderId: id('sender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    recipientId: id('recipient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
    /** Hidden by a moderator (docs/decisions/moderation.md): others see a placeholder, the author the text and the reason. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    hiddenReason: text('hidden_reason'),
    hiddenBy: id('hidden_by'),
    createdAt: createdAt(),
  },
  (t) => [
    index('chat_messages_pair_idx').on(t.senderId, t.recipientId, t.createdAt),
    index('chat_messages_unread_idx').on(t.recipientId, t.readAt),
    index('chat_messages_recipient_idx').on(t.recipientId, t.senderId, t.createdAt),
  ],
);

const REPORT_KINDS = ['comment', 'review', 'thread', 'post', 'message', 'user'] as const;
const REPORT_REASONS = ['spam', 'harassment', 'hate', 'scam', 'other'] as const;
const MODERATION_ACTIONS = ['dismiss', 'hide', 'unhide', 'delete', 'warn', 'suspend', 'ban', 'lift'] as const;

/**
 * A user's report of something another user wrote (or of the user). One per reporter and item; it stays
 * `open` until an administrator acts on the item, then records the outcome (the reporter is emailed it).
 * `target_user_id` is the item's author when reported, so the queue and suspensions need no lookup.
 */
export const reports = pgTable(
  'reports',
  {
    id: id().primaryKey(),
    reporterId: id('reporter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    targetKind: text('target_kind', { enum: REPORT_KINDS }).notNull(),
    targetId: id('target_id').notNull(),
    targetUserId: id('target_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reason: text('reason', { enum: REPORT_REASONS }).notNull(),
    details: text('details').notNull().default(''),
    status: text('status', { enum: ['open', 'resolved'] }).notNull().default('open'),
    outcome: text('outcome', { enum: MODERATION_ACTIONS }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('reports_reporter_target_idx').on(t.reporterId, t.targetKind, t.targetId),
    index('reports_open_idx').on(t.status, t.targetKind, t.targetId),
    check('reports_kind_valid', sql`${t.targetKind} in ('comment', 'review', 'thread', 'post', 'message', 'user')`),
    check('reports_reason_valid', sql`${t.reason} in ('spam', 'harassment', 'hate', 'scam', 'other')`),
  ],
);

/** Every moderator action, append-only: who, when, on what, why. Admins read it on /admin. */
export const moderationActions = pgTable(
  'moderation_actions',
  {
    id: id().primaryKey(),
    adminId: id('admin_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    targetKind: text('target_kind', { enum: REPORT_KINDS }).notNull(),
    targetId: id('target_id').notNull(),
    /** The account the action concerned (the item's author); kept when the item itself is deleted. */
    targetUserId: id('target_user_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action', { enum: MODERATION_ACTIONS }).notNull(),
    reason: text('reason').notNull(),
    /** Suspensions: how many days. */
    days: integer('days'),
    /** What the item said when acted on (a deleted item's words stay in the log for the record). */
    excerpt: text('excerpt').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('moderation_actions_created_idx').on(t.createdAt), index('moderation_actions_target_user_idx').on(t.targetUserId)],
);

/** A user who blocked another in chat: the blocked one cannot message them or see them in contacts. */
export const chatBlocks = pgTable(
  'chat_blocks',
  {
    blockerId: id('blocker_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    blockedId: id('blocked_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.blockerId, t.blockedId] }), index('chat_blocks_blocked_idx').on(t.blockedId)],
);
