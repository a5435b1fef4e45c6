import { randomUUID } from 'node:crypto';
import { NO_REFUNDS, type RefundPolicy } from '@tukio/shared/refund-policy';
import type { Column, SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { isStillReferenced } from '../../lib/db-errors.js';
import { requireOwner } from '../../lib/auth.js';
import type { ChangeFeed } from '../../lib/change-feed.js';
import { hasStarted, nowAsWallClock, startOfTodayWallClock } from '../../lib/event-clock.js';
import { utcDay } from './event-dates.js';
import { canSeeEvent } from './event-visibility.js';
import { chunk } from '../../db/chunk.js';
import { toPage, type Page } from '../../lib/keyset-page.js';
import { createEventChangesRepository, type PendingChangeRow } from './event-changes.repository.js';
import { describeChanges, movesEvent, pausesSales, splitEdit, toEventChanges, type FieldChange, type ProposedChanges } from './event-changes.js';
import { buildEventMovedMail } from './event-moved-mail.js';
import { createEventsRepository, type EventChanges, type EventListFilter, type EventRow, type StatusCounts } from './events.repository.js';
import { createEventSearchRepository, type SearchedEventRow, type SearchFilters, type SearchPage } from './event-search.repository.js';
import { encodeCursor, searchWords } from './search-query.js';
import type { AdminEventsQuery, CreateEventInput, SearchInput, SharePlatform, UpdateEventInput } from './events.schemas.js';
import { createTtlCache } from '../../lib/ttl-cache.js';
import type { Request, Response } from 'express';
import type { AuthUser } from '../auth/index.js';
import type { GeocodingService } from '../geocoding/index.js';
import type { MailOutbox } from '../mail/index.js';
import type { Language } from '../../lib/i18n.js';
import { nextEventDate, toEventDateDto, type EventDateDto } from './event-series.service.js';

/**
 * An event in a paged list: the contract's object without `registeredUsers`, which grows with the
 * attendees (the lists that page show none of them, and a page must stay small).
 */
export type ListedEvent = Omit<EventDto, 'registeredUsers'>;
export type ListedEventPage = Page<ListedEvent>;

function toListedEvent(row: EventRow, publicUrl: string): ListedEvent {
  const { registeredUsers: _registeredUsers, ...event } = toEventDto(row, { registeredUsers: [], ticketsSold: row.ticketsSold }, publicUrl);
  return event;
}

/** The contract's event object. */
export interface EventDto {
  _id: string;
  title: string;
  description: string;
  date: string;
  startDate: string;
  location: string;
  image: string | null;
  status: 'approved' | 'pending' | 'cancelled';
  /** Set once the event is cancelled: why, and when. */
  cancelReason: string | null;
  cancelledAt: string | null;
  isPaid: boolean;
  ticketPrice: number;
  ticketPriceMax: number;
  capacity: number | null;
  /** What a holder gets back when cancelling their own tickets (none for events made before policies). */
  refundPolicy: RefundPolicy;
  /**
   * Present only when buyers pay the platform fee on top of the price (docs/decisions/fees.md); absent means it
   * comes out of the price (the default), so the answers of events that never chose keep their exact shape.
   */
  feeMode?: 'on_top';
  registeredUsers: string[];
  user: string;
  latitude: number | null;
  longitude: number | null;
  openedCount: number;
  /** Valid tickets issued so far (void ones hold no seat). */
  ticketsSold: number;
  /** Only on a series (docs/decisions/event-series.md): every date, cancelled ones included, earliest first. */
  dates?: EventDateDto[];
  /** Only on a series: its next active date not started yet (null when none is left). */
  nextDate?: EventDateDto | null;
  /** Seats not yet taken, or null for an event without a capacity. */
  seatsLeft: number | null;
  createdAt: string;
}

const UPLOAD_NAME = /^\/uploads\/[0-9a-f]{24}\.(?:jpg|png|webp|gif|svg)$/;

export const eventMessages = {
  hasMoneyRecords: 'This event has money records in the ledger, so it cannot be deleted. Cancel it instead.',
  severalTypes: 'This event sells several ticket types: change their prices under Ticket types (or remove all but one).',
  notFound: 'Event not found.',
  pastDate: 'The event date cannot be in the past.',
  badImage: 'Image must be an image uploaded to Tukio (/uploads/…) or an https:// URL.',
  statusAdminOnly: 'Only administrators can change the status of an event.',
  notOwner: 'Only the organiser of this event or an administrator can do that.',
  paidNeedsPrice: 'Ticket price must be at least 1 shilling for a paid event.',
  coordinatesTogether: 'Latitude and longitude must be given together.',
  deleted: 'Event deleted successfully.',
  deletedByOrganiser: 'Deleted by the organiser',
  cancelled: 'This event has been cancelled, so it can no longer be changed.',
  hasTickets: 'This event already has ticket holders, so it cannot be deleted. Please contact an administrator.',
  changesPending:
    'Your changes were saved and wait for review. Until an administrator approves them, the public keeps seeing the published version, ' +
    'and it stays on sale.',
  changesPendingSalesPaused:
    'Your changes were saved and wait for review. The published version stays visible, but because the date, the place or the price goes up, ' +
    'sales are paused until an administrator decides.',
  salesPaused: 'Sales are paused while changes to this event are reviewed. Please try again later.',
  changeNotFound: 'This event has no changes waiting for review.',
  changeDatePast: 'The proposed date has already passed: reject the change instead.',
  changeApproved: 'Changes approved: the event page now shows them.',
  changeRejected: 'Changes rejected: the event keeps its published version.',
  changeWithdrawn: 'Your proposed changes were withdrawn.',
} as const;

/** What the organiser and the admin see of a proposed edit: the proposed values and each changed field, old | new. */
export interface PendingChangeView {
  eventId: string;
  status: 'pending' | 'rejected';
  /** The set moves the date or the place, or raises the price: new holds and registrations are refused meanwhile. */
  pausesSales: boolean;
  proposedAt: string;
  decidedAt: string | null;
  rejectReason: string | null;
  changes: FieldChange[];
}

/** 409 for deleting an event with orders: the buyers' payment records must outlive it. */
export function hasOrdersMessage(counts: Partial<Record<string, number>>): string {
  const { total, details } = orderCounts(counts);
  return `This event has ${total} ticket order${total === 1 ? '' : 's'} (${details}), so it cannot be deleted: the buyers' payment records must be kept.`;
}

/** How many orders an event has, in all and per status (`2 paid, 1 refund due`). */
function orderCounts(counts: Partial<Record<string, number>>): { total: number; details: string } {
  const entries = Object.entries(counts).filter(([, n]) => (n ?? 0) > 0);
  const total = entries.reduce((sum, [, n]) => sum + (n ?? 0), 0);
  return { total, details: entries.map(([status, n]) => `${n} ${status.replace('_', ' ')}`).join(', ') };
}

export function capacityTooLowMessage(issued: number, held: number): string {
  return `Capacity cannot be below the ${issued + held} seats in use: ${issued} ticket${issued === 1 ? '' : 's'} sold and ${held} held by purchases in progress or offered to the waitlist.`;
}

/** Fields whose change a moderator must see again (capacity and coordinates alone are not among them). */
const MATERIAL_FIELDS = ['title', 'description', 'image', 'startsAt', 'location', 'isPaid', 'ticketPrice'] as const;

function isMaterialEdit(row: EventRow, changes: EventChanges): boolean {
  return MATERIAL_FIELDS.some((field) => {
    const next = changes[field];
    if (next === undefined) return false;
    const current = row[field];
    return next instanceof Date && current instanceof Date ? next.getTime() !== current.getTime() : next !== current;
  });
}

/**
 * Our own uploads are stored as a path (`/uploads/<id>.<ext>`) so the database does not depend on
 * the host name; anything else must be https. Returns the value to store.
 */
export function normalizeImageUrl(value: string | null | undefined, publicUrl: string): string | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  const raw = value.trim();
  if (raw.startsWith('/')) {
    if (UPLOAD_NAME.test(raw)) return raw;
    throw AppError.badRequest('event_image_invalid', eventMessages.badImage, 'image');
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw AppError.badRequest('event_image_invalid', eventMessages.badImage, 'image');
  }
  if (url.pathname.startsWith('/uploads/') && url.origin === new URL(publicUrl).origin) {
    if (UPLOAD_NAME.test(url.pathname)) return url.pathname;
    throw AppError.badRequest('event_image_invalid', eventMessages.badImage, 'image');
  }
  if (url.protocol !== 'https:' || url.username || url.password) throw AppError.badRequest('event_image_invalid', eventMessages.badImage, 'image');
  return url.toString();
}

/** Stored image as the browser should load it: our uploads become absolute under PUBLIC_URL. */
export function publicImageUrl(image: string | null, publicUrl: string): string | null {
  if (!image) return null;
  return image.startsWith('/') ? `${publicUrl}${image}` : image;
}

/** The event's refund policy as @tukio/shared/refund-policy speaks it. */
export function refundPolicyOf(row: { refundPolicy: RefundPolicy['kind']; refundPercent: number | null; refundUntilHours: number }): RefundPolicy {
  return { kind: row.refundPolicy, percent: row.refundPercent, untilHours: row.refundUntilHours };
}

/** The columns a refund policy is stored in. */
function refundPolicyColumns(policy: RefundPolicy) {
  return { refundPolicy: policy.kind, refundPercent: policy.percent, refundUntilHours: policy.untilHours };
}

export function toEventDto(row: EventRow, extra: { registeredUsers: string[]; ticketsSold: number }, publicUrl: string): EventDto {
  const date = row.startsAt.toISOString();
  return {
    _id: row.id,
    title: row.title,
    description: row.description,
    date,
    startDate: date,
    location: row.location,
    image: publicImageUrl(row.image, publicUrl),
    status: row.status,
    cancelReason: row.cancelReason,
    cancelledAt: row.cancelledAt?.toISOString() ?? null,
    isPaid: row.isPaid,
    ticketPrice: row.ticketPrice,
    ticketPriceMax: row.ticketPriceMax,
    capacity: row.capacity,
    refundPolicy: refundPolicyOf(row),
    ...(row.feeMode === 'on_top' ? { feeMode: 'on_top' as const } : {}),
    registeredUsers: extra.registeredUsers,
    user: row.userId,
    latitude: row.latitude,
    longitude: row.longitude,
    openedCount: row.openedCount,
    ticketsSold: extra.ticketsSold,
    seatsLeft: row.capacity === null ? null : Math.max(0, row.capacity - extra.ticketsSold),
    createdAt: row.createdAt.toISOString(),
    ...seriesFields(row),
  };
}

/** A series' dates and next date; nothing for an event with one date, whose answer keeps its exact shape. */
function seriesFields(row: EventRow): Pick<EventDto, 'dates' | 'nextDate'> {
  if (!row.seriesDates || row.seriesDates.length === 0) return {};
  const dates = row.seriesDates.map((date) => toEventDateDto({ ...date, startsAt: new Date(date.startsAt), endsAt: date.endsAt ? new Date(date.endsAt) : null }));
  return { dates, nextDate: nextEventDate(dates) };
}

/**
 * What events must know about an event's tickets, orders and ticket types, which the tickets, payments and
 * ticket-types modules own (all sit above events: they sell its seats). app.ts passes their repositories; each is made on the
 * executor given here, the database or the transaction that holds the event row lock.
 */
export interface EventHoldings {
  /** Who holds a ticket, per event: the contract's registeredUsers. */
  registrations(executor: Executor): { registeredUserIds(eventIds: string[]): Promise<Map<string, string[]>> };
  /** The same as a column of a statement reading events (`eventId` its event id): search reads it with the events. */
  registeredUserIdsColumn(eventId: Column | SQL): SQL<string[]>;
  /** The event row lock every stock change takes, and the seats in use under it. */
  seats(executor: Executor): {
    lockEvent(eventId: string): Promise<object | undefined>;
    seatCounts(eventId: string, now: Date): Promise<{ issued: number; held: number; offered: number }>;
  };
  /** Orders per status: an event with orders keeps its buyers' payment records, so it is never deleted. */
  orders(executor: Executor): { orderCountsForEvent(eventId: string): Promise<Partial<Record<string, number>>> };
  /** Whom to tell when an approved change moves the event: every holder of a valid ticket, once, with their language. */
  holders(executor: Executor): { validHolderContacts(eventId: string): Promise<Array<{ email: string; username: string; language: Language }>> };
  /** How many ticket types the event sells (the ticket-types module's): its price follows ticketPrice only while it has one. */
  ticketTypeCount(executor: Executor, eventId: string): Promise<number>;
}

/**
 * Cancelling an event voids its tickets and refunds its buyers, the work of the refunds module (above
 * events). Deleting an event that has orders cancels it instead, so app.ts passes that module's cancel.
 */
export interface EventCancellation {
  cancel(eventId: string, user: AuthUser, reason: string): Promise<{ msg: string }>;
}

export interface EventsServiceDeps {
  db: Database;
  holdings: EventHoldings;
  geocoding: GeocodingService;
  publicUrl: string;
  /**
   * How long a search's ranked ids and total are reused (0 = never). Only the ordering is cached:
   * the events themselves, their tickets and seats are read fresh on every request.
   */
  searchCacheMs?: number;
  /**
   * How long a published event's body is served from memory (0 = never). Writes through any
   * instance (edits, moderation, tickets) reach the cache through `changes` and drop the entry at
   * once; the time to live only bounds a change nobody announced. Opens are added in place.
   */
  eventCacheMs?: number;
  changes: ChangeFeed;
  /** The mail outbox the holders' notices of a moved event go through (written in the approving transaction). */
  mail?: Pick<MailOutbox, 'send' | 'soon'> | undefined;
  /** Without it, deleting an event that has orders is refused (409) as before cancellation existed. */
  cancellation?: EventCancellation | undefined;
  /** The real instant (tests inject one); compared with event times only through lib/event-clock.ts. */
  now?: () => Date;
}

const MiB = 1024 * 1024;

/** The contract's two whole lists: approved events (visitors), every event (an admin's /getevnt). */
type WholeList = 'approved' | 'all';

/** A page as the search repository found it, and the change generation its events were read at (for the bodies' cache). */
type RankedSearch = SearchPage & { readAt?: number };

/** GET /api/events: `{items, total, page, limit, pages}` as the contract has it, and keyset paging beside it. */
export interface SearchAnswer {
  items: EventDto[];
  total: number;
  page: number;
  limit: number;
  pages: number;
  /** The total is the planner's estimate: more matched than are counted exactly. */
  totalIsEstimate: boolean;
  /** Pass as `cursor` for the next page (null on the last one). */
  nextCursor: string | null;
  /** The words searched for when a typed word begins no known word and was replaced by the most similar one. */
  correctedQuery?: string;
}

export function createEventsService(deps: EventsServiceDeps) {
  const repo = createEventsRepository(deps.db);
  const searchRepo = createEventSearchRepository(deps.db, deps.holdings.registeredUserIdsColumn);
  const registrations = deps.holdings.registrations(deps.db);
  const now = deps.now ?? (() => new Date());
  // Bounded in bytes too: event bodies and result lists vary widely in size (descriptions, long result lists).
  const searches = createTtlCache<RankedSearch>({ ttlMs: deps.searchCacheMs ?? 15_000, max: 1000, maxBytes: 8 * MiB });
  /** Identical searches arriving together share one ranked query instead of each running it. */
  const inflight = new Map<string, Promise<RankedSearch>>();
  const published = createTtlCache<EventDto>({ ttlMs: deps.eventCacheMs ?? 30_000, max: 20_000, maxBytes: 32 * MiB });
  /** The last answer per search; reused only while made of the same cached bodies. */
  const answers = createTtlCache<SearchAnswer>({
    ttlMs: deps.searchCacheMs ?? 15_000,
    max: 1000,
    maxBytes: 16 * MiB,
  });
  /**
   * The contract's whole-list answers (GET /api/events/admin/approved and /getevnt), which clients written
   * against the original contract read whole: serialized once per change counter value, with an ETag made of
   * that counter (304 on repeat); the route's compression middleware gzips them. The ETag carries this
   * process's id, so another instance's counter can never match it by chance (docs/decisions/whole-lists.md).
   */
  const wholeLists = new Map<WholeList, { version: number; body: Promise<Buffer> }>();
  const instance = randomUUID().slice(0, 8);
  let listsVersion = 0;
  function wholeListBody(key: WholeList, version: number): Promise<Buffer> {
    const known = wholeLists.get(key);
    if (known?.version === version) return known.body;
    const body = (key === 'approved' ? repo.listByStatus('approved') : repo.list({ approvedOnly: false }))
      .then(toDtos)
      .then((dtos) => Buffer.from(JSON.stringify(dtos), 'utf8'));
    wholeLists.set(key, { version, body });
    // A failed read is not kept: the next reader tries again.
    body.catch(() => {
      if (wholeLists.get(key)?.body === body) wholeLists.delete(key);
    });
    return body;
  }
  async function sendWholeList(req: Request, res: Response, key: WholeList) {
    // Taken before the read: a change during it gives the next request a new ETag and a new read.
    const version = listsVersion;
    res.setHeader('ETag', `"${key}-${instance}-${version}"`);
    res.setHeader('Cache-Control', 'no-cache');
    if (req.fresh) {
      res.status(304).end();
      return;
    }
    res.type('json').send(await wholeListBody(key, version));
  }
  /** Bumped by every change, so a read that started before it never caches what it read. */
  let generation = 0;
  // Any change to an event may change search results; tickets change only the event's own body.
  deps.changes.subscribe('event', (id) => {
    generation += 1;
    searches.clear();
    inflight.clear();
    published.forget(id);
    listsVersion += 1;
  });
  deps.changes.subscribe('event-tickets', (id) => {
    generation += 1;
    published.forget(id);
    // Bodies carry seats and registered users.
    listsVersion += 1;
  });
  /** Announces a change to this and every other instance; returns `value` for chaining. */
  const changed = <T>(value: T, id: string | null): T => {
    deps.changes.publish('event', id);
    return value;
  };

  /** The page for `filters` (identical searches in flight share one statement), with the generation its events were read at. */
  function rankedSearch(key: string, filters: SearchFilters): Promise<RankedSearch> {
    const startedAt = generation;
    if (!searches.enabled) return searchRepo.page(filters).then((result) => ({ ...result, readAt: startedAt }));
    const running = inflight.get(key);
    if (running) return running;
    const search = searchRepo.page(filters).then((result) => {
      // A write during the query may have changed the answer: it serves these callers but is not kept.
      // Only the ordering is kept: the events are read again (or from their own cache) when it is reused.
      if (generation === startedAt) searches.set(key, { ...result, rows: undefined });
      return { ...result, readAt: startedAt };
    });
    const forget = () => {
      if (inflight.get(key) === search) inflight.delete(key);
    };
    search.then(forget, forget);
    inflight.set(key, search);
    return search;
  }

  /** registeredUsers for many events in one batched query (a few for very long lists), never one per event. */
  async function toDtos(rows: EventRow[]): Promise<EventDto[]> {
    if (rows.length === 0) return [];
    const registered = new Map<string, string[]>();
    for (const slice of chunk(rows.map((row) => row.id))) {
      for (const [id, users] of await registrations.registeredUserIds(slice)) registered.set(id, users);
    }
    return rows.map((row) => toEventDto(row, { registeredUsers: registered.get(row.id) ?? [], ticketsSold: row.ticketsSold }, deps.publicUrl));
  }

  const toDto = async (row: EventRow) => (await toDtos([row]))[0]!;

  /** A page of events for the lists that page (their total is filled in by the caller). */
  async function listedPage(filter: EventListFilter, order: 'asc' | 'desc', query: { limit: number; cursor?: string[] | undefined }): Promise<ListedEventPage> {
    const rows = await repo.page(filter, order, query.cursor, query.limit);
    const page = toPage(rows, query.limit, 0, (row) => [row.startsAtMicros, row.id]);
    return { ...page, items: page.items.map((row) => toListedEvent(row, deps.publicUrl)) };
  }

  /** Remembers published events' bodies, unless a change arrived while they were being read. */
  function remember(dtos: EventDto[], readStartedAt: number) {
    if (readStartedAt !== generation) return;
    for (const dto of dtos) if (dto.status === 'approved') published.set(dto._id, dto);
  }

  /**
   * Published events by id, from memory where possible; the rest in one read, or from `read` (rows read with the
   * search, since generation `read.startedAt`). Order follows `ids`.
   */
  async function publishedByIds(ids: string[], read?: { rows: SearchedEventRow[]; startedAt: number }): Promise<EventDto[]> {
    const found = new Map<string, EventDto>();
    const missing: string[] = [];
    for (const id of ids) {
      const dto = published.get(id);
      if (dto) found.set(id, dto);
      else missing.push(id);
    }
    if (missing.length > 0) {
      const startedAt = read?.startedAt ?? generation;
      const wanted = new Set(missing);
      const dtos = read
        ? read.rows.filter((row) => wanted.has(row.id)).map((row) => toEventDto(row, { registeredUsers: row.registeredUsers, ticketsSold: row.ticketsSold }, deps.publicUrl))
        : await toDtos(await repo.findByIds(missing));
      remember(dtos, startedAt);
      for (const dto of dtos) found.set(dto._id, dto);
    }
    // An event deleted or unpublished since is left out rather than shown.
    return ids.map((id) => found.get(id)).filter((dto): dto is EventDto => dto?.status === 'approved');
  }

  /** A pending event exists only for its organiser and admins; everyone else gets the same 404 as for an unknown id. */
  async function findVisible(id: string, viewer: AuthUser | undefined): Promise<EventRow> {
    const row = await repo.findById(id);
    if (!row || !canSeeEvent(row, viewer)) throw AppError.notFound('event_not_found', eventMessages.notFound);
    return row;
  }

  async function findEditable(id: string, user: AuthUser): Promise<EventRow> {
    const row = await findVisible(id, user);
    requireOwner(user, row.userId, { code: 'event_not_organiser', message: eventMessages.notOwner });
    return row;
  }

  /** Why an update found nothing to change: the event is gone (404), or it was cancelled meanwhile (409). */
  async function notUpdated(id: string): Promise<never> {
    const row = await repo.findById(id);
    if (row?.status === 'cancelled') throw AppError.conflict('event_cancelled_locked', eventMessages.cancelled);
    throw AppError.notFound('event_not_found', eventMessages.notFound);
  }

  /**
   * Saves an edit. A capacity is checked against the seats sold and held under the event row lock
   * that every hold takes, so no purchase can slip in between the count and the update.
   */
  async function saveChanges(id: string, changes: EventChanges): Promise<EventRow | undefined> {
    const capacity = changes.capacity;
    if (capacity === undefined || capacity === null) return repo.update(id, changes);
    return deps.db.transaction(async (tx) => {
      if (!(await deps.holdings.seats(tx).lockEvent(id))) return undefined;
      await assertCapacityFits(tx, id, capacity);
      return createEventsRepository(tx).update(id, changes);
    });
  }

  /** Refuses a capacity below the seats sold and held; the caller holds the event row lock. */
  async function assertCapacityFits(tx: Executor, id: string, capacity: number | null | undefined) {
    if (capacity === undefined || capacity === null) return;
    // Seats offered to the waitlist are promised like held ones.
    const counts = await deps.holdings.seats(tx).seatCounts(id, new Date());
    const issued = counts.issued;
    const held = counts.held + counts.offered;
    if (issued + held > capacity) {
      throw new AppError(409, 'capacity_below_sold', capacityTooLowMessage(issued, held), {
        field: 'capacity',
        params: { inUse: issued + held, sold: issued, held },
        body: { ticketsSold: issued, seatsHeld: held },
      });
    }
  }

  function pendingChangeView(live: EventRow, row: PendingChangeRow): PendingChangeView {
    return {
      eventId: row.eventId,
      status: row.status,
      pausesSales: row.status === 'pending' && row.pausesSales,
      proposedAt: row.proposedAt.toISOString(),
      decidedAt: row.decidedAt?.toISOString() ?? null,
      rejectReason: row.rejectReason,
      changes: describeChanges(live, row.changes as ProposedChanges, (image) => publicImageUrl(image, deps.publicUrl)),
    };
  }

  /**
   * An organiser's edit of a published event: under the event row lock (which every hold and registration
   * takes, so a pause starts between two purchases), what needs no review applies at once and the rest
   * replaces the event's set waiting for review. The live row keeps the approved version.
   */
  async function proposeChanges(id: string, input: UpdateEventInput, changes: EventChanges, user: AuthUser) {
    const outcome = await deps.db.transaction(async (tx) => {
      if (!(await deps.holdings.seats(tx).lockEvent(id))) return undefined;
      const events = createEventsRepository(tx);
      const live = await events.findById(id);
      if (!live || live.status === 'cancelled') return undefined;
      const changeSets = createEventChangesRepository(tx);
      const previous = await changeSets.find(id);
      const before = previous?.status === 'pending' ? (previous.changes as ProposedChanges) : {};
      const { immediate, proposed } = splitEdit(live, before, input, changes);
      await assertCapacityFits(tx, id, immediate.capacity);
      const updated = Object.keys(immediate).length > 0 ? await events.update(id, immediate) : live;
      if (!updated) return undefined;
      let set = previous;
      if (Object.keys(proposed).length === 0) {
        // Every proposed part was taken back: nothing waits any more.
        if (previous?.status === 'pending') set = (await changeSets.remove(id)) ? undefined : previous;
      } else if (previous?.status !== 'pending' || JSON.stringify(proposed) !== JSON.stringify(before)) {
        set = await changeSets.propose(id, { changes: proposed, pausesSales: pausesSales(live, proposed), proposedBy: user.id }, new Date());
      }
      return { updated, set };
    });
    if (!outcome) return notUpdated(id);
    changed(outcome.updated, id);
    const dto = await toDto(outcome.updated);
    const set = outcome.set && pendingChangeView(outcome.updated, outcome.set);
    const waiting = set?.status === 'pending';
    return {
      ...dto,
      reReview: false,
      ...(waiting ? { msg: set.pausesSales ? eventMessages.changesPendingSalesPaused : eventMessages.changesPending } : {}),
      pendingChange: set ?? null,
    };
  }

  /**
   * Applies the waiting set to the live row in one transaction, under the event row lock; when it moves the
   * date or the place, every holder of a valid ticket is told in that same transaction (the mail outbox).
   */
  async function approveChange(id: string) {
    const outcome = await deps.db.transaction(async (tx) => {
      if (!(await deps.holdings.seats(tx).lockEvent(id))) throw AppError.notFound('event_not_found', eventMessages.notFound);
      const changeSets = createEventChangesRepository(tx);
      const set = await changeSets.lockPending(id);
      if (!set) throw AppError.notFound('event_change_not_found', eventMessages.changeNotFound);
      const events = createEventsRepository(tx);
      const live = await events.findById(id);
      if (!live) throw AppError.notFound('event_not_found', eventMessages.notFound);
      if (live.status === 'cancelled') throw AppError.conflict('event_cancelled_locked', eventMessages.cancelled);
      const apply = toEventChanges(set.changes as ProposedChanges);
      if (apply.startsAt && apply.startsAt.getTime() !== live.startsAt.getTime() && hasStarted(apply.startsAt, now())) {
        throw AppError.conflict('event_change_date_past', eventMessages.changeDatePast, 'date');
      }
      if (apply.ticketPrice !== undefined && apply.ticketPrice !== live.ticketPrice && (await deps.holdings.ticketTypeCount(tx, id)) > 1) {
        throw AppError.conflict('event_several_ticket_types', eventMessages.severalTypes, 'ticketPrice');
      }
      const updated = await events.update(id, apply);
      if (!updated) throw AppError.conflict('event_cancelled_locked', eventMessages.cancelled);
      await changeSets.remove(id);
      let told = 0;
      if (deps.mail && movesEvent(live, updated)) {
        const holders = await deps.holdings.holders(tx).validHolderContacts(id);
        for (const holder of holders) {
          const mail = buildEventMovedMail({
            to: holder.email,
            username: holder.username,
            language: holder.language,
            eventId: id,
            title: updated.title,
            before: { startsAt: live.startsAt, location: live.location },
            after: { startsAt: updated.startsAt, location: updated.location },
            publicUrl: deps.publicUrl,
          });
          await deps.mail.send(mail, `event ${id} moved`, tx);
        }
        told = holders.length;
      }
      return { updated, told };
    });
    if (outcome.told > 0) deps.mail?.soon();
    // Seats and registered users are unchanged; the body, lists and search are not.
    changed(outcome.updated, id);
    return { event: await toDto(outcome.updated), holdersNotified: outcome.told };
  }

  /** A new or moved start must not have started already on the Nairobi wall clock. */
  function assertFuture(date: Date) {
    if (hasStarted(date, now())) throw AppError.badRequest('event_date_past', eventMessages.pastDate, 'date');
  }

  /** Paid events need a price of at least 1; free ones always cost 0. */
  function pricing(isPaid: boolean | undefined, ticketPrice: number | null | undefined) {
    const paid = isPaid ?? (ticketPrice ?? 0) > 0;
    // ticketPriceMax too: an event priced this way has one type (several are refused), so cheapest = dearest.
    if (!paid) return { isPaid: false, ticketPrice: 0, ticketPriceMax: 0 };
    if (!ticketPrice || ticketPrice < 1) throw AppError.badRequest('paid_event_price_required', eventMessages.paidNeedsPrice, 'ticketPrice');
    return { isPaid: true, ticketPrice, ticketPriceMax: ticketPrice };
  }

  /** Coordinates as given, or geocoded from the location text; null when nothing matches. */
  async function coordinates(location: string, latitude: number | null | undefined, longitude: number | null | undefined) {
    const hasLat = latitude !== null && latitude !== undefined;
    const hasLon = longitude !== null && longitude !== undefined;
    if (hasLat !== hasLon) throw AppError.badRequest('coordinates_together', eventMessages.coordinatesTogether, hasLat ? 'longitude' : 'latitude');
    if (hasLat && hasLon) return { latitude, longitude };
    const found = await deps.geocoding.geocode(location);
    return { latitude: found?.lat ?? null, longitude: found?.lon ?? null };
  }

  return {
    /** For the sweep of unused uploads (app.ts wires it to the uploads module): the names an event still shows. */
    imagesInUse: (names: string[]) => repo.imagesInUse(names),

    /** GET /api/events/getevnt: every event for an admin, the approved ones for anyone else (the same answer as sendApproved). */
    sendList(req: Request, res: Response, viewer: AuthUser | undefined) {
      return sendWholeList(req, res, viewer?.role === 'admin' ? 'all' : 'approved');
    },

    /** GET /api/events/admin/approved. */
    sendApproved(req: Request, res: Response) {
      return sendWholeList(req, res, 'approved');
    },
    listPending: async () => toDtos(await repo.listByStatus('pending')),
    listByUser: async (userId: string) => toDtos(await repo.listByUser(userId)),

    /** GET /api/admin/events: a page of any events, with the count of each status for the same filter. */
    async adminPage(query: AdminEventsQuery): Promise<ListedEventPage & { counts: StatusCounts & { all: number } }> {
      const { status, user: userId, q } = query;
      const [counts, page] = await Promise.all([
        repo.countByStatus({ userId, q }),
        listedPage({ status, userId, q }, query.order, query),
      ]);
      const all = counts.pending + counts.approved + counts.cancelled;
      return { ...page, total: status ? counts[status] : all, counts: { ...counts, all } };
    },

    /** GET /api/events/user/:userId/paged: the organiser's events by date, pending ones included. */
    async pageByUser(userId: string, query: { limit: number; cursor?: string[] | undefined }): Promise<ListedEventPage> {
      const [counts, page] = await Promise.all([repo.countByStatus({ userId }), listedPage({ userId }, 'asc', query)]);
      return { ...page, total: counts.pending + counts.approved + counts.cancelled };
    },
    upcoming: async (limit: number) => toDtos(await repo.upcoming(nowAsWallClock(now()), limit)),

    /** Events with recent activity by decayed score, then (to fill the list) the soonest upcoming ones. */
    async popular(limit: number) {
      const real = now();
      const at = nowAsWallClock(real);
      // Activity rows are keyed by the real UTC day they happened on (recordActivity), not the wall clock.
      const trending = await repo.trending(at, limit, utcDay(real));
      if (trending.length < limit) {
        const seen = new Set(trending.map((row) => row.id));
        for (const row of await repo.upcoming(at, limit + trending.length)) {
          if (trending.length >= limit) break;
          if (!seen.has(row.id)) trending.push(row);
        }
      }
      return toDtos(trending);
    },

    /** A published event is the same for every viewer, so its body is served from memory when known. */
    async get(id: string, viewer: AuthUser | undefined) {
      const cached = published.get(id);
      if (cached) return cached;
      const startedAt = generation;
      // The registrations lookup runs beside the event read; it is discarded when the event is not visible.
      const [row, registered] = await Promise.all([repo.findById(id), registrations.registeredUserIds([id])]);
      // Ticket holders keep their event page while an edit of it is back in review.
      const holder = Boolean(viewer && registered.get(id)?.includes(viewer.id));
      if (!row || (!canSeeEvent(row, viewer) && !holder)) throw AppError.notFound('event_not_found', eventMessages.notFound);
      const dto = toEventDto(row, { registeredUsers: registered.get(id) ?? [], ticketsSold: row.ticketsSold }, deps.publicUrl);
      remember([dto], startedAt);
      return dto;
    },

    async related(id: string, viewer: AuthUser | undefined, limit = 3) {
      const row = await findVisible(id, viewer);
      return toDtos(await repo.related(row, nowAsWallClock(now()), limit));
    },

    async search(input: SearchInput): Promise<SearchAnswer> {
      const { page, limit } = input;
      const filters: SearchFilters = {
        words: searchWords(input.q),
        location: input.location?.toLowerCase(),
        from: input.from ?? startOfTodayWallClock(now()),
        toExclusive: input.toExclusive,
        free: input.free,
        limit,
        offset: (page - 1) * limit,
        after: input.cursor,
      };
      const key = JSON.stringify(filters);
      const found = searches.lookup(key);
      let result: RankedSearch;
      if (found) {
        result = found.value;
        // Past its time to live: answer from it once more and refresh it in the background.
        if (!found.fresh) rankedSearch(key, filters).catch(() => undefined);
      } else {
        result = await rankedSearch(key, filters);
      }
      // The events are read fresh (with a new ranking, in its statement) or come from the published bodies' cache,
      // never from the cached ranking.
      const items = await publishedByIds(
        result.hits.map((hit) => hit.id),
        result.rows && result.readAt !== undefined ? { rows: result.rows, startedAt: result.readAt } : undefined,
      );
      const { total, totalIsEstimate, correctedQuery } = result;
      const last = result.hits.at(-1);
      const nextCursor = result.hasMore && last ? encodeCursor(last) : null;
      // The same answer as last time (same total, the very same cached bodies) is the same object,
      // so the route sends the JSON it already serialized (see sendMemoJson).
      const previous = answers.get(key);
      if (
        previous &&
        previous.total === total &&
        previous.nextCursor === nextCursor &&
        previous.items.length === items.length &&
        previous.items.every((item, i) => item === items[i])
      ) {
        return previous;
      }
      const answer: SearchAnswer = { items, total, page, limit, pages: Math.ceil(total / limit), totalIsEstimate, nextCursor, ...(correctedQuery ? { correctedQuery } : {}) };
      answers.set(key, answer);
      return answer;
    },

    /** Always pending until an admin approves; the creator is the caller, whatever the body says. */
    async create(input: CreateEventInput, user: AuthUser) {
      assertFuture(input.date);
      const image = normalizeImageUrl(input.image, deps.publicUrl);
      const price = pricing(input.isPaid, input.ticketPrice);
      const coords = await coordinates(input.location, input.latitude, input.longitude);
      const row = await repo.insert({
        title: input.title,
        description: input.description,
        startsAt: input.date,
        location: input.location,
        image,
        ...price,
        capacity: input.capacity ?? null,
        ...refundPolicyColumns(input.refundPolicy ?? NO_REFUNDS),
        feeMode: input.feeMode ?? 'absorbed',
        ...coords,
        status: 'pending',
        userId: user.id,
      });
      return toDto(changed(row, row.id));
    },

    async update(id: string, input: UpdateEventInput, user: AuthUser) {
      if (input.status !== undefined && user.role !== 'admin') throw AppError.forbidden('event_status_admin_only', eventMessages.statusAdminOnly);
      const row = await findEditable(id, user);
      if (row.status === 'cancelled') throw AppError.conflict('event_cancelled_locked', eventMessages.cancelled);
      const changes: EventChanges = {};
      if (input.title !== undefined) changes.title = input.title;
      if (input.description !== undefined) changes.description = input.description;
      if (input.date !== undefined && input.date.getTime() !== row.startsAt.getTime()) {
        assertFuture(input.date);
        changes.startsAt = input.date;
      }
      if (input.image !== undefined) changes.image = normalizeImageUrl(input.image, deps.publicUrl);
      if (input.isPaid !== undefined || input.ticketPrice !== undefined) {
        // A price alone decides paid or free; isPaid alone keeps the stored price.
        const isPaid = input.isPaid ?? (input.ticketPrice != null ? input.ticketPrice > 0 : row.isPaid);
        Object.assign(changes, pricing(isPaid, isPaid ? (input.ticketPrice ?? row.ticketPrice) : 0));
        // One type follows ticketPrice (a trigger does it); with several, each type has its own price.
        if (changes.ticketPrice !== row.ticketPrice && (await deps.holdings.ticketTypeCount(deps.db, id)) > 1) {
          throw AppError.conflict('event_several_ticket_types', eventMessages.severalTypes, 'ticketPrice');
        }
      }
      if (input.capacity !== undefined) changes.capacity = input.capacity;
      if (input.refundPolicy !== undefined) Object.assign(changes, refundPolicyColumns(input.refundPolicy));
      // Applies at once, like capacity: a checkout priced under the other mode is priced again by its hold (the fee is in the pricing facts).
      if (input.feeMode !== undefined) changes.feeMode = input.feeMode;
      const locationChanged = input.location !== undefined && input.location !== row.location;
      if (input.location !== undefined) changes.location = input.location;
      if (input.latitude !== undefined || input.longitude !== undefined || locationChanged) {
        // New coordinates when given; a moved event without them is geocoded again.
        Object.assign(changes, await coordinates(input.location ?? row.location, input.latitude, input.longitude));
      }
      if (input.status !== undefined) changes.status = input.status;
      // The organiser's edit of a published event waits for review beside it, the approved version staying live.
      if (user.role !== 'admin' && row.status === 'approved') return proposeChanges(id, input, changes, user);
      // A never-approved event's edit just applies, and a material one keeps it pending (whatever its status
      // is by the time the update runs), so an approval racing the edit never publishes unreviewed text.
      if (user.role !== 'admin' && isMaterialEdit(row, changes)) changes.status = 'pending';
      const updated = changed(await saveChanges(id, changes), id) ?? (await notUpdated(id));
      return { ...(await toDto(updated)), reReview: false };
    },

    /** GET /api/events/:id/pending-change: the organiser's (or an admin's) view of the set waiting for review, or the last rejected one. */
    async pendingChange(id: string, user: AuthUser): Promise<{ pendingChange: PendingChangeView | null }> {
      const row = await findEditable(id, user);
      const set = await createEventChangesRepository(deps.db).find(id);
      return { pendingChange: set ? pendingChangeView(row, set) : null };
    },

    /** DELETE /api/events/:id/pending-change: the organiser withdraws the set (or dismisses a rejected one); sales resume. */
    async withdrawChange(id: string, user: AuthUser) {
      await findEditable(id, user);
      if (!(await createEventChangesRepository(deps.db).remove(id))) throw AppError.notFound('event_change_not_found', eventMessages.changeNotFound);
      changed(true, id);
      return { msg: eventMessages.changeWithdrawn, pendingChange: null };
    },

    /** GET /api/events/admin/changes: sets waiting for review, oldest first, each with its live event. */
    async listChanges(limit = 100) {
      const sets = await createEventChangesRepository(deps.db).listPending(limit);
      const rows = new Map((await repo.findByIds(sets.map((set) => set.eventId))).map((row) => [row.id, row]));
      const items = sets.flatMap((set) => {
        const live = rows.get(set.eventId);
        // A cancelled event's set can no longer be applied: it drops out of the queue.
        if (!live || live.status === 'cancelled') return [];
        return [{ ...pendingChangeView(live, set), proposedBy: set.proposedBy, event: toListedEvent(live, deps.publicUrl) }];
      });
      return { items };
    },

    /** PUT /api/events/admin/changes/:id/approve. */
    async approveChange(id: string) {
      const { event, holdersNotified } = await approveChange(id);
      return { ...event, msg: eventMessages.changeApproved, holdersNotified };
    },

    /** PUT /api/events/admin/changes/:id/reject: the live version stays; the organiser sees the reason. */
    async rejectChange(id: string, reason: string | undefined) {
      const set = await createEventChangesRepository(deps.db).reject(id, reason?.trim() || null, new Date());
      if (!set) throw AppError.notFound('event_change_not_found', eventMessages.changeNotFound);
      changed(true, id);
      const live = await repo.findById(id);
      return { msg: eventMessages.changeRejected, pendingChange: live ? pendingChangeView(live, set) : null };
    },

    /**
     * Nobody deletes an event that has orders, pending or paid: the buyers' payments must be kept (the
     * database refuses it too), so such an event is cancelled instead (its buyers refunded). Only an
     * admin may delete an event that has (free) ticket holders.
     */
    async remove(id: string, user: AuthUser): Promise<{ msg: string; cancelled?: true }> {
      const row = await findEditable(id, user);
      const outcome = await deps.db.transaction(async (tx) => {
        // The seat-hold function locks the event row too, so no order can appear between the count and the delete.
        if (!(await deps.holdings.seats(tx).lockEvent(id))) return 'gone' as const;
        const orders = await deps.holdings.orders(tx).orderCountsForEvent(id);
        if (Object.keys(orders).length > 0) {
          if (deps.cancellation) return 'has-orders' as const;
          throw new AppError(409, 'event_has_orders', hasOrdersMessage(orders), {
            params: orderCounts(orders),
            body: { orders },
          });
        }
        if (user.role !== 'admin' && row.ticketsSold > 0) throw AppError.conflict('event_has_tickets', eventMessages.hasTickets);
        // A money record naming the event (an administrator's ledger adjustment) keeps it: the database refuses.
        const removed = await createEventsRepository(tx)
          .remove(id)
          .catch((error: unknown) => {
            if (isStillReferenced(error)) throw AppError.conflict('event_has_money_records', eventMessages.hasMoneyRecords);
            throw error;
          });
        return removed ? ('deleted' as const) : ('gone' as const);
      });
      if (outcome === 'has-orders') {
        const cancelled = await deps.cancellation!.cancel(id, user, eventMessages.deletedByOrganiser);
        return { msg: cancelled.msg, cancelled: true };
      }
      changed(outcome === 'deleted', id);
      return { msg: eventMessages.deleted };
    },

    /**
     * Admin moderation: approve publishes, disapprove returns the event to pending. Approving an event whose
     * organiser's changes wait for review applies them too (an admin client that knows no change sets approves
     * what it is shown as waiting).
     */
    async setStatus(id: string, status: 'approved' | 'pending') {
      if (status === 'approved' && (await createEventChangesRepository(deps.db).find(id))?.status === 'pending') {
        await approveChange(id).catch((error: unknown) => {
          // Approved or withdrawn meanwhile: the status change below still applies.
          if (!(error instanceof AppError && error.code === 'event_change_not_found')) throw error;
        });
      }
      const updated = changed(await repo.update(id, { status }), id) ?? (await notUpdated(id));
      return toDto(updated);
    },

    async countOpen(id: string) {
      if (!(await repo.countOpen(id))) throw AppError.notFound('event_not_found', eventMessages.notFound);
      // Opens are too frequent to announce: this instance adds its own, others catch up within the TTL.
      published.update(id, (dto) => ({ ...dto, openedCount: dto.openedCount + 1 }));
    },

    async countShare(id: string, platform: SharePlatform) {
      const row = await repo.findById(id);
      if (!row || row.status !== 'approved') throw AppError.notFound('event_not_found', eventMessages.notFound);
      return repo.countShare(id, platform);
    },
  };
}

export type EventsService = ReturnType<typeof createEventsService>;
