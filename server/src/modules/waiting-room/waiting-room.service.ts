import { AppError } from '../../lib/app-error.js';
import { createTtlCache } from '../../lib/ttl-cache.js';
import type { AdmissionControl } from './admission-control.js';
import type { WaitingRoomStore } from './waiting-room.store.js';

/**
 * The waiting room of a sale (docs/decisions/waiting-room.md). Every seat hold of a paid purchase
 * passes through it: a buyer takes a number in arrival order, and numbers are admitted at the rate
 * the deployment sustains (WAITING_ROOM_RATE per second and event; with WAITING_ROOM_ADAPTIVE, following how
 * fast seat holds are answered: ./admission-control.ts). When nobody waits, a burst of
 * WAITING_ROOM_BURST buyers is admitted at once, so an ordinary sale never notices it. A buyer not
 * admitted yet gets 429 with their place; their number is kept, so trying again (any client, ours
 * polls the line first) never loses their turn. An admitted buyer keeps their turn for
 * WAITING_ROOM_TURN_SECONDS (retries after a failed payment included), then goes to the back.
 */
export interface WaitingRoomDeps {
  store: WaitingRoomStore;
  /** The admission rate now (the store reads it too), told how holds go and who had to wait. */
  rate: Pick<AdmissionControl, 'perSecond' | 'observeHold' | 'observePush' | 'observeQueued'>;
  turnSeconds: number;
  /** Seats still to be had (issued tickets and live holds taken away); null without a seat limit. */
  seats: { seatsLeft(eventId: string): Promise<number | null> };
  random?: () => number;
}

/** The line as its buyer sees it (GET /api/events/:id/queue). */
export interface QueuePlace {
  eventId: string;
  /** The buyer has a number in this event's line (they tried to buy while people waited). */
  inLine: boolean;
  admitted: boolean;
  /** People ahead of the buyer, the buyer included; 0 once admitted; null when not in line. */
  position: number | null;
  /** The wait left at the admission rate, in seconds. */
  etaSeconds: number;
  /** When the admitted buyer's turn ends (ISO); null otherwise. */
  turnEndsAt: string | null;
  /** When to ask again. */
  pollAfterMs: number;
  /** No seats left to wait for (held seats may still come back). */
  soldOut: boolean;
}

/** Who takes a number: an account, or a guest by phone (their purchase has no account token). */
export type QueueMember = { userId: string } | { phone: string };
const memberKey = (member: QueueMember) => ('userId' in member ? `u:${member.userId}` : `p:${member.phone}`);

const POLL_MIN_MS = 1000;
const POLL_MAX_MS = 10_000;
const SEATS_CACHE_MS = 1000;

export function createWaitingRoomService(deps: WaitingRoomDeps) {
  const { store, rate } = deps;
  const turnMs = deps.turnSeconds * 1000;
  const random = deps.random ?? Math.random;
  // Waiting buyers ask often; the seat count behind "sold out" is read at most once a second per event and instance.
  const seatsLeft = createTtlCache<Promise<number | null>>({ ttlMs: SEATS_CACHE_MS, max: 10_000, sizeOf: () => 64 });

  /** The buyer's place; a lapsed turn is given up first (and, when joining, a new number taken at the back). */
  async function visit(eventId: string, member: string, join: boolean) {
    let place = await store.visit(eventId, member, join);
    if (place.admittedAt !== null && place.now - place.admittedAt > turnMs) {
      await store.forget(eventId, member);
      place = await store.visit(eventId, member, join);
    }
    const admitted = place.admittedAt !== null;
    const position = place.number === 0 ? null : admitted ? 0 : place.number - place.frontier;
    const etaSeconds = Math.ceil((position ?? 0) / rate.perSecond);
    // Asked again at about a third of the wait (spread by ±20 % so a crowd's polls do not come in waves).
    const pollAfterMs = Math.round(Math.min(POLL_MAX_MS, Math.max(POLL_MIN_MS, (etaSeconds * 1000) / 3)) * (0.8 + 0.4 * random()));
    return { admitted, position, etaSeconds, pollAfterMs, turnEndsAt: admitted ? new Date(place.admittedAt! + turnMs).toISOString() : null };
  }

  function cachedSeatsLeft(eventId: string) {
    let left = seatsLeft.get(eventId);
    if (!left) {
      left = deps.seats.seatsLeft(eventId);
      seatsLeft.set(eventId, left);
      left.catch(() => seatsLeft.forget(eventId));
    }
    return left;
  }

  return {
    /**
     * Before a seat hold: takes the buyer's number if they have none and answers when admitted; otherwise
     * throws 429 `waiting_room_queued` with their place (the number is kept for their next try).
     */
    async admit(eventId: string, member: QueueMember): Promise<void> {
      const place = await visit(eventId, memberKey(member), true);
      if (place.admitted) return;
      rate.observeQueued();
      const position = place.position ?? 1;
      throw new AppError(
        429,
        'waiting_room_queued',
        `Many people are buying tickets for this event right now. You are number ${position} in the line and your place is kept: please try again in about ${place.etaSeconds} seconds.`,
        { params: { position, seconds: place.etaSeconds }, body: { waitingRoom: { position, etaSeconds: place.etaSeconds, pollAfterMs: place.pollAfterMs } } },
      );
    },

    /** Times an admitted buyer's seat hold: how long holds take is what the admission rate follows. */
    async timeHold<T>(hold: () => Promise<T>): Promise<T> {
      const started = performance.now();
      try {
        return await hold();
      } finally {
        rate.observeHold(performance.now() - started);
      }
    },

    /** A whole push took `ms` (the payment service timed it from asking for the order to recording the push). */
    observePush(ms: number) {
      rate.observePush(ms);
    },

    /**
     * The buyer's place; `join` takes a number for a buyer without one (a client asks this before its purchase:
     * one cheap request instead of a whole checkout refused). Without it a buyer not in line is told so.
     */
    async place(eventId: string, member: QueueMember, join = false): Promise<QueuePlace> {
      const [place, left] = await Promise.all([visit(eventId, memberKey(member), join), cachedSeatsLeft(eventId)]);
      // Someone waiting (our client joins and asks here rather than pushing): demand beyond the rate.
      if (place.position !== null && !place.admitted) rate.observeQueued();
      return { eventId, inLine: place.position !== null, ...place, soldOut: left !== null && left <= 0 };
    },
  };
}

export type WaitingRoomService = ReturnType<typeof createWaitingRoomService>;
