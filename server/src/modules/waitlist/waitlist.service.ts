import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { requireOwner } from '../../lib/auth.js';
import type { AuthUser } from '../auth/index.js';
import type { ChangeFeed } from '../../lib/change-feed.js';
import { hasStarted } from '../../lib/event-clock.js';
import type { Logger } from '../../lib/logger.js';
import type { JobQueue } from '../../lib/job-queue.js';
import { createRepeatingTask } from '../../lib/repeating-task.js';
import { canSeeEvent } from '../events/index.js';
import { orderQuestions } from '../checkout/index.js';
import type { SmsService } from '../sms/index.js';
import { eventSeats, ticketMessages, type TicketsService } from '../tickets/index.js';
import type { Language } from '../../lib/i18n.js';
import { buildWaitlistOfferMail, waitlistOfferText } from './waitlist-mail.js';
import { createWaitlistRepository, type WaitlistEntryRow } from './waitlist.repository.js';

export const waitlistMessages = {
  noLimit: 'This event has no seat limit: get your tickets now.',
  seatsLeft: (left: number) => `Tickets are still available (${left} left): get them now instead of waiting.`,
  already: 'You are already on the waitlist for this event.',
  notOnList: 'You are not on the waitlist for this event.',
  notOwner: 'Only the organiser or an admin can see who is waiting.',
  offerExpired: (at: Date) =>
    `Your waitlist offer expired at ${at.toISOString().slice(11, 16)} UTC and passed to the next person. Join the waitlist again to wait for another seat.`,
} as const;

export interface WaitlistDeps {
  db: Database;
  /** Its mail queue sends the offers (one at a time, flushed at shutdown). */
  tickets: TicketsService;
  changes: ChangeFeed;
  logger: Logger;
  publicUrl: string;
  /** How long an offer holds its seats for the person it was made to. */
  offerMinutes: number;
  /** How often every waitlist is looked at (offers that ran out, seats freed without a change published). */
  sweepMs: number;
  /** Offers also go by SMS to the phone the person last paid with, when there is one. */
  sms?: Pick<SmsService, 'enqueue'> | undefined;
  /** The periodic sweep runs as jobs here (once per period across instances). */
  jobs?: JobQueue | undefined;
}

/** A change published for an event is looked at once after this quiet time, however many came in a burst. */
const CHANGE_SETTLE_MS = 250;
/** Events looked at per sweep; the rest wait for the next one. */
const SWEEP_BATCH = 200;
/** Places listed for the organiser (the counts cover all of them). */
const ORGANISER_LIST_LIMIT = 500;

type OfferMade = { entry: WaitlistEntryRow; email: string; username: string; language: Language };

/**
 * The waitlist of sold-out events (docs/decisions/waitlist.md). People join in order; each seat that
 * frees up (a cancelled ticket, a hold or payment that ran out, a raised capacity, an offer that
 * expired) is offered to the first person waiting, held for them for `offerMinutes` and announced by
 * email. While an offer is live its seats count as taken for everyone else (the hold function and the
 * seat counts read the offers), so accepting is the normal checkout; the place ends when its holder
 * gets a ticket. Offers are made under the event row lock that every seat change takes, so two
 * instances, or an offer and a purchase, never hand out the same seat twice.
 */
export function createWaitlistService(deps: WaitlistDeps) {
  const { db, logger } = deps;
  const offerMs = deps.offerMinutes * 60 * 1000;

  async function visibleEvent(eventId: string, user: AuthUser) {
    const event = await eventSeats(db).findEvent(eventId);
    if (!event || !canSeeEvent(event, user)) throw AppError.notFound('event_not_found', ticketMessages.notFound);
    return event;
  }

  /** Seats this person could buy now: their own offer counts as theirs. */
  async function seatsAvailableFor(eventId: string, capacity: number | null, userId: string, now: Date): Promise<number | null> {
    if (capacity === null) return null;
    return Math.max(0, capacity - (await eventSeats(db).seatsTaken(eventId, now, { userId })));
  }

  /** What the person sees of their place: open, or the latest one that ended (an offer that expired, say). */
  async function placeOf(eventId: string, userId: string, capacity: number | null, now = new Date()) {
    const repo = createWaitlistRepository(db);
    const entry = (await repo.findOpen(eventId, userId)) ?? (await repo.latestFor(eventId, userId));
    const queue = await repo.queueOf(eventId, entry?.status === 'waiting' ? entry : undefined);
    return {
      eventId,
      seatsAvailable: await seatsAvailableFor(eventId, capacity, userId, now),
      waiting: queue.waiting,
      entry: entry
        ? {
            _id: entry.id,
            status: entry.status,
            quantity: entry.quantity,
            position: entry.status === 'waiting' ? queue.ahead + 1 : null,
            offeredQuantity: entry.offeredQuantity,
            offeredAt: entry.offeredAt?.toISOString() ?? null,
            offerExpiresAt: entry.offerExpiresAt?.toISOString() ?? null,
            joinedAt: entry.createdAt.toISOString(),
          }
        : null,
    };
  }

  /**
   * Under the event row lock: offers that ran out end, then the seats nobody holds go to the people
   * waiting, first come first served (someone who wants more seats than are free is offered what is
   * free). A cancelled, unapproved or started event closes its waitlist instead.
   */
  async function offerFreedSeatsNow(eventId: string) {
    const outcome = await db.transaction(async (tx) => {
      const seats = eventSeats(tx);
      const repo = createWaitlistRepository(tx);
      const event = await seats.lockEvent(eventId);
      if (!event) return { event, offers: [] as OfferMade[], expired: 0 };
      const now = new Date();
      if (event.status !== 'approved' || hasStarted(event.startsAt, now)) {
        await repo.closeAll(eventId, now);
        return { event, offers: [], expired: 0 };
      }
      const expired = (await repo.expireOffers(eventId, now)).length;
      // No seat limit (it was removed): everyone waiting can buy as many as they asked for.
      const free = event.capacity === null ? Number.POSITIVE_INFINITY : event.capacity - (await seats.seatsTaken(eventId, now));
      if (free <= 0) return { event, offers: [], expired };
      const offers: OfferMade[] = [];
      let left = free;
      const expiresAt = new Date(now.getTime() + offerMs);
      for (const next of await repo.nextWaiting(eventId, Math.min(left, SWEEP_BATCH))) {
        if (left <= 0) break;
        const quantity = Math.min(next.entry.quantity, left);
        const offered = await repo.offer(next.entry.id, quantity, now, expiresAt);
        if (!offered) continue;
        offers.push({ entry: offered, email: next.email, username: next.username, language: next.language });
        left -= quantity;
      }
      return { event, offers, expired };
    });
    const { event } = outcome;
    if (event) {
      for (const made of outcome.offers) {
        deps.tickets.queueMail(`waitlist offer ${made.entry.id}`, async () =>
          buildWaitlistOfferMail({
            to: made.email,
            username: made.username,
            language: made.language,
            event: { id: event.id, title: event.title, startsAt: event.startsAt, location: event.location, isPaid: event.isPaid && event.ticketPrice > 0 },
            seats: made.entry.offeredQuantity ?? made.entry.quantity,
            expiresAt: made.entry.offerExpiresAt!,
            publicUrl: deps.publicUrl,
          }),
        );
      }
      await textOffers(event, outcome.offers);
      if (outcome.offers.length > 0 || outcome.expired > 0) {
        logger.info(`waitlist of event ${eventId}: ${outcome.offers.length} offer(s) made, ${outcome.expired} expired`);
        // Offered seats change what buyers can get: event caches and seat counts must look again.
        deps.changes.publish('event-tickets', eventId);
      }
    }
    return { offers: outcome.offers.length, expired: outcome.expired };
  }

  /** The offer by SMS too, to whoever has paid with M-Pesa before (their number is known); once per offer. */
  async function textOffers(event: { id: string; title: string }, offers: OfferMade[]) {
    if (!deps.sms || offers.length === 0) return;
    const payments = orderQuestions(db);
    const messages = [];
    for (const made of offers) {
      const phone = await payments.latestPhoneOf(made.entry.userId);
      if (!phone) continue;
      messages.push({
        purpose: 'waitlist-offer',
        dedupeKey: `waitlist-offer:${made.entry.id}:${made.entry.offeredAt?.toISOString() ?? ''}`,
        phone,
        message: waitlistOfferText({ language: made.language, title: event.title, seats: made.entry.offeredQuantity ?? made.entry.quantity, expiresAt: made.entry.offerExpiresAt!, url: `${deps.publicUrl}/events/${event.id}` }),
      });
    }
    await deps.sms.enqueue(messages);
  }

  /** One look per event at a time on this instance; a request made meanwhile runs once after it. */
  const running = new Map<string, Promise<unknown>>();
  const again = new Set<string>();
  function offerFreedSeats(eventId: string): Promise<unknown> {
    const current = running.get(eventId);
    if (current) {
      again.add(eventId);
      return current;
    }
    const run = offerFreedSeatsNow(eventId)
      .catch((error: unknown) => logger.error(`waitlist of event ${eventId} not looked at`, error))
      .finally(() => {
        running.delete(eventId);
        if (again.delete(eventId)) void offerFreedSeats(eventId);
      });
    running.set(eventId, run);
    return run;
  }

  // Seats change when tickets are voided or issued and when an event is edited: look at its waitlist
  // soon after, once per burst, and only when it has one (most events never do).
  const soon = new Set<string>();
  let soonTimer: NodeJS.Timeout | undefined;
  function lookSoon(eventId: string | null) {
    if (!eventId || sweeper.stopped) return;
    soon.add(eventId);
    soonTimer ??= setTimeout(() => {
      soonTimer = undefined;
      const ids = [...soon];
      soon.clear();
      for (const id of ids) {
        void createWaitlistRepository(db)
          .hasOpen(id)
          .then((open) => (open ? offerFreedSeats(id) : undefined))
          .catch((error: unknown) => logger.error(`waitlist of event ${id} not looked at`, error));
      }
    }, CHANGE_SETTLE_MS);
    soonTimer.unref();
  }
  deps.changes.subscribe('event-tickets', lookSoon);
  deps.changes.subscribe('event', lookSoon);

  async function sweepNow() {
    const ids = await createWaitlistRepository(db).eventsWithWork(new Date(), SWEEP_BATCH);
    for (const id of ids) {
      if (sweeper.stopped) break;
      await offerFreedSeats(id);
    }
    return ids.length;
  }
  const sweeper = createRepeatingTask('waitlist sweep', sweepNow, { everyMs: deps.sweepMs, logger, jobs: deps.jobs });

  const service = {
    async join(user: AuthUser, eventId: string, quantity: number) {
      const now = new Date();
      const event = await visibleEvent(eventId, user);
      await db.transaction(async (tx) => {
        const seats = eventSeats(tx);
        const locked = await seats.lockEvent(eventId);
        if (!locked) throw AppError.notFound('event_not_found', ticketMessages.notFound);
        if (locked.status === 'cancelled') throw AppError.conflict('event_cancelled', ticketMessages.cancelled);
        if (hasStarted(locked.startsAt, now)) throw new AppError(400, 'event_past', ticketMessages.past);
        if (locked.status !== 'approved') throw new AppError(400, 'event_not_open', ticketMessages.notOpen);
        if (locked.capacity === null) throw AppError.conflict('waitlist_no_limit', waitlistMessages.noLimit);
        const repo = createWaitlistRepository(tx);
        if (await repo.findOpen(eventId, user.id)) throw AppError.conflict('waitlist_already', waitlistMessages.already);
        const left = Math.max(0, locked.capacity - (await seats.seatsTaken(eventId, now, { userId: user.id })));
        if (left >= quantity) throw new AppError(409, 'waitlist_seats_left', waitlistMessages.seatsLeft(left), { params: { seatsLeft: left }, body: { seatsAvailable: left } });
        await repo.insert({ eventId, userId: user.id, quantity });
      });
      // Someone who wants more than is free may be offered what is free straight away.
      await offerFreedSeats(eventId);
      return placeOf(eventId, user.id, event.capacity);
    },

    async leave(user: AuthUser, eventId: string) {
      const event = await visibleEvent(eventId, user);
      const repo = createWaitlistRepository(db);
      const open = await repo.findOpen(eventId, user.id);
      const ended = open ? await repo.end(open.id, 'left', new Date()) : undefined;
      if (!ended) throw AppError.notFound('waitlist_not_on_list', waitlistMessages.notOnList);
      // An offer given back passes on now.
      if (ended.status === 'offered') await offerFreedSeats(eventId);
      return placeOf(eventId, user.id, event.capacity);
    },

    async mine(user: AuthUser, eventId: string) {
      const event = await visibleEvent(eventId, user);
      return placeOf(eventId, user.id, event.capacity);
    },

    /** The organiser's (or an admin's) view: who waits, who holds an offer until when, and how it ended for the rest. */
    async forEvent(user: AuthUser, eventId: string) {
      const event = await visibleEvent(eventId, user);
      requireOwner(user, event.userId, { code: 'waitlist_not_organiser', message: waitlistMessages.notOwner });
      const { counts, rows } = await createWaitlistRepository(db).listForEvent(eventId, ORGANISER_LIST_LIMIT);
      const count = (status: WaitlistEntryRow['status']) => counts[status] ?? 0;
      return {
        eventId,
        length: count('waiting'),
        offered: count('offered'),
        accepted: count('accepted'),
        expired: count('expired'),
        left: count('left'),
        entries: rows.map(({ entry, username }) => ({
          _id: entry.id,
          username,
          quantity: entry.quantity,
          status: entry.status,
          offeredQuantity: entry.offeredQuantity,
          offerExpiresAt: entry.offerExpiresAt?.toISOString() ?? null,
          joinedAt: entry.createdAt.toISOString(),
        })),
      };
    },

    /** Why a sold-out answer refuses this person, when their own offer ran out (else undefined). */
    async soldOutNote(userId: string, eventId: string) {
      const latest = await createWaitlistRepository(db).latestFor(eventId, userId);
      if (latest?.status !== 'expired' || !latest.offerExpiresAt) return undefined;
      const at = latest.offerExpiresAt;
      return { code: 'waitlist_offer_expired' as const, message: waitlistMessages.offerExpired(at), params: { time: at.toISOString().slice(11, 16) } };
    },

    offerFreedSeats,

    /** Looks at every waitlist with work once (offers run out, seats freed without a change published). */
    sweep: sweeper.runOnce,

    start: sweeper.start,

    /** Shutdown: no new looks; the one running finishes. */
    async stop() {
      if (soonTimer) clearTimeout(soonTimer);
      await sweeper.stop();
      await Promise.all(running.values());
    },
  };
  return service;
}

export type WaitlistService = ReturnType<typeof createWaitlistService>;
