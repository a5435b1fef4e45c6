import type { Database, Executor } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { requireOwner } from '../../lib/auth.js';
import type { ChangeFeed } from '../../lib/change-feed.js';
import { nowAsWallClock } from '../../lib/event-clock.js';
import type { AuthUser } from '../auth/index.js';
import { canSeeEvent, eventSeries } from '../events/index.js';
import type { PaymentsService } from '../checkout/index.js';
import { eventSeats, ticketMessages } from '../tickets/index.js';
import { depositFor } from '../checkout/index.js';
import { createTicketTypesRepository, type TicketTypeRow } from './ticket-types.repository.js';
import type { PromoCodeInput, TicketTypeInput } from './ticket-types.schemas.js';

export interface TicketTypesDeps {
  db: Database;
  changes: ChangeFeed;
  /** The checkout's quote: the price and stock rules the purchase itself is held to. */
  payments: Pick<PaymentsService, 'quote'>;
}

/**
 * An instalment plan must leave something to pay later and keep less than the deposit (docs/decisions/instalments.md):
 * only a paid event's types, due before the event starts (both wall-clock times), and a cancellation fee below the
 * deposit of one ticket. Checked before anything is written, so a refused plan changes nothing.
 */
function refuseBadInstalmentPlans(types: TicketTypeInput[], event: { isPaid: boolean; startsAt: Date }) {
  for (const [index, type] of types.entries()) {
    const plan = type.instalments;
    if (!plan) continue;
    const field = `ticketTypes.${index}.instalments`;
    if (!event.isPaid || type.price < 2) throw AppError.badRequest('instalments_free_type', 'Only paid tickets (Ksh.2 or more) can be paid in instalments.', field);
    if (plan.dueDate >= event.startsAt) throw AppError.badRequest('instalments_due_after_start', 'The rest must be due before the event starts.', `${field}.dueDate`);
    if (plan.dueDate <= nowAsWallClock()) throw AppError.badRequest('instalments_due_passed', 'The due date must be in the future.', `${field}.dueDate`);
    if (plan.cancellationFee >= depositFor(type.price, plan.depositPercent)) {
      throw AppError.badRequest('instalments_fee_too_high', 'The cancellation fee must be less than the deposit of one ticket.', `${field}.cancellationFee`);
    }
  }
}

/** Where a type's sale stands at a wall-clock moment. */
function saleState(type: TicketTypeRow, wallNow: Date, left: number | null): 'on_sale' | 'not_started' | 'ended' | 'sold_out' {
  if (type.salesStart && type.salesStart > wallNow) return 'not_started';
  if (type.salesEnd && type.salesEnd <= wallNow) return 'ended';
  if (left !== null && left <= 0) return 'sold_out';
  return 'on_sale';
}

/**
 * Ticket types (docs/decisions/ticket-types.md) and promo codes: the organiser sets them, buyers see what
 * is on sale and what it costs. Selling itself (prices, holds, uses) is the checkout's (payments/price-order.ts,
 * payments/hold-order.handler.ts), so the rules a purchase is held to are written once.
 */
export function createTicketTypesService(deps: TicketTypesDeps) {
  const { db } = deps;

  async function visibleEvent(eventId: string, user: AuthUser | undefined) {
    const event = await eventSeats(db).findEvent(eventId);
    if (!event || !canSeeEvent(event, user)) throw AppError.notFound('event_not_found', ticketMessages.notFound);
    return event;
  }

  async function ownEvent(eventId: string, user: AuthUser) {
    const event = await visibleEvent(eventId, user);
    requireOwner(user, event.userId, { code: 'ticket_types_not_organiser', message: 'Only the organiser can manage ticket types and promo codes.' });
    return event;
  }

  const service = {
    /** The event's types in order, each with what is left and whether it is on sale now. */
    async list(eventId: string, user: AuthUser | undefined) {
      const event = await visibleEvent(eventId, user);
      const now = new Date();
      const repo = createTicketTypesRepository(db);
      const [types, counts] = await Promise.all([repo.listTypes(eventId), repo.typeCounts(eventId, now)]);
      const eventLeft = event.capacity === null ? null : Math.max(0, event.capacity - (await eventSeats(db).seatsTaken(eventId, now, user ? { userId: user.id } : {})));
      const wallNow = nowAsWallClock(now);
      return {
        eventId,
        capacity: event.capacity,
        seatsLeft: eventLeft,
        ticketTypes: types.map((type) => {
          const count = counts.get(type.id) ?? { sold: 0, held: 0, reserved: 0 };
          const typeLeft = type.capacity === null ? null : Math.max(0, type.capacity - count.sold - count.held);
          const left = typeLeft === null ? eventLeft : eventLeft === null ? typeLeft : Math.min(typeLeft, eventLeft);
          return {
            _id: type.id,
            name: type.name,
            price: type.price,
            capacity: type.capacity,
            salesStart: type.salesStart?.toISOString() ?? null,
            salesEnd: type.salesEnd?.toISOString() ?? null,
            maxPerOrder: type.maxPerOrder,
            instalments: type.instalments ? { ...type.instalments, depositAmount: depositFor(type.price, type.instalments.depositPercent) } : null,
            sold: count.sold,
            reserved: count.reserved,
            seatsLeft: left,
            state: saleState(type, wallNow, left),
            // Series fields only when set, so a single-date event's answer keeps its exact shape.
            ...(type.dateId ? { dateId: type.dateId } : {}),
            ...(type.allDates ? { allDates: true as const } : {}),
          };
        }),
      };
    },

    /**
     * Replaces the event's types with `types` (those with an `_id` are changed in place), under the event
     * row lock every seat change takes. A type something was bought as cannot be removed, and no capacity
     * may go below what is sold and held.
     */
    async replace(eventId: string, user: AuthUser, types: TicketTypeInput[]) {
      const event = await ownEvent(eventId, user);
      if (event.status === 'cancelled') throw AppError.conflict('ticket_types_event_cancelled', 'This event was cancelled: its tickets can no longer change.');
      if (!event.isPaid && (types.length > 1 || types.some((type) => type.price > 0))) {
        throw AppError.badRequest('free_event_one_type', 'A free event has one free ticket type. Make the event paid to sell several types.', 'ticketTypes');
      }
      const limited = types.findIndex((type) => type.capacity !== null || type.salesStart || type.salesEnd);
      if (!event.isPaid && limited >= 0) {
        throw AppError.badRequest('free_event_capacity', "A free event's seats are limited by its own capacity, and registration is open until it starts.", `ticketTypes.${limited}`);
      }
      if (event.isPaid) {
        const index = types.findIndex((type) => type.price < 1);
        if (index >= 0) throw AppError.badRequest('ticket_type_price_too_low', 'Every ticket type of a paid event costs at least Ksh.1.', `ticketTypes.${index}.price`);
      }
      refuseBadInstalmentPlans(types, event);
      await db.transaction(async (tx) => {
        if (!(await eventSeats(tx).lockEvent(eventId))) throw AppError.notFound('event_not_found', ticketMessages.notFound);
        const repo = createTicketTypesRepository(tx);
        const existing = await repo.listTypes(eventId);
        const known = new Set(existing.map((type) => type.id));
        const activeDates = new Set((await eventSeries(tx).listDates(eventId)).filter((date) => date.status === 'active').map((date) => date.id));
        const strayDate = types.findIndex((type) => type.dateId && !activeDates.has(type.dateId));
        if (strayDate >= 0) throw AppError.badRequest('event_date_not_found', 'No such date for this event.', `ticketTypes.${strayDate}.dateId`);
        const unknown = types.findIndex((type) => type._id && !known.has(type._id));
        if (unknown >= 0) throw AppError.badRequest('ticket_type_other_event', 'That ticket type belongs to another event.', `ticketTypes.${unknown}._id`);
        const keep = types.flatMap((type) => (type._id ? [type._id] : []));
        const removed = existing.filter((type) => !keep.includes(type.id));
        const inUse = await repo.typesInUse(removed.map((type) => type.id));
        const blocked = removed.find((type) => inUse.has(type.id));
        if (blocked) throw AppError.conflict('ticket_type_has_sales', `${blocked.name} tickets were already bought: keep the type (end its sales instead of removing it).`, {
          field: 'ticketTypes',
          params: { name: blocked.name },
        });
        const counts = await repo.typeCounts(eventId, new Date());
        for (const [index, type] of types.entries()) {
          const count = type._id ? counts.get(type._id) : undefined;
          if (count && type.capacity !== null && type.capacity < count.sold + count.held) {
            throw AppError.conflict('ticket_type_capacity_below_sold', `${type.name} already has ${count.sold} sold and ${count.held} held: its capacity cannot be below ${count.sold + count.held}.`, {
              field: `ticketTypes.${index}.capacity`,
              params: { name: type.name, sold: count.sold, held: count.held, min: count.sold + count.held },
            });
          }
        }
        await repo.deleteTypes(eventId, keep);
        for (const [index, type] of types.entries()) await repo.saveType(eventId, index, type);
      });
      // Prices on lists and the event's seat counts may have changed.
      deps.changes.publish('event', eventId);
      deps.changes.publish('event-tickets', eventId);
      return service.list(eventId, user);
    },

    /** What the purchase would cost (the checkout's quote: the same pricing and stock rules as the purchase, nothing held). */
    async quote(eventId: string, user: AuthUser | undefined, input: { items?: Array<{ typeId: string; quantity: number }> | undefined; quantity: number; promoCode?: string | undefined; dateId?: string | undefined }) {
      const event = await visibleEvent(eventId, user);
      return deps.payments.quote(eventId, user?.id ?? event.userId, input);
    },

    async listPromoCodes(eventId: string, user: AuthUser) {
      await ownEvent(eventId, user);
      const rows = await createTicketTypesRepository(db).listPromoCodes(eventId, new Date());
      return rows.map(({ code, uses }) => ({
        _id: code.id,
        code: code.code,
        kind: code.kind,
        value: code.value,
        maxUses: code.maxUses,
        uses: Number(uses),
        validFrom: code.validFrom?.toISOString() ?? null,
        validUntil: code.validUntil?.toISOString() ?? null,
        ticketTypeIds: code.ticketTypeIds ?? null,
        createdAt: code.createdAt.toISOString(),
      }));
    },

    async createPromoCode(eventId: string, user: AuthUser, input: PromoCodeInput) {
      const event = await ownEvent(eventId, user);
      if (!event.isPaid) throw AppError.badRequest('promo_code_free_event', 'Promo codes are for paid events.', 'code');
      const repo = createTicketTypesRepository(db);
      const limited = input.ticketTypeIds ?? [];
      if ((await repo.typesOfEvent(eventId, limited)).length !== new Set(limited).size) throw AppError.badRequest('ticket_types_other_event', 'Those ticket types are not all of this event.', 'ticketTypeIds');
      const row = await repo.insertPromoCode(eventId, input);
      if (!row) throw AppError.conflict('promo_code_exists', `This event already has the code ${input.code}.`, { field: 'code', params: { code: input.code } });
      return (await service.listPromoCodes(eventId, user)).find((code) => code._id === row.id)!;
    },

    /** An unused code is deleted; one that orders used is ended now instead (money rows keep pointing at it). */
    async removePromoCode(eventId: string, codeId: string, user: AuthUser) {
      await ownEvent(eventId, user);
      const repo = createTicketTypesRepository(db);
      const code = await repo.findPromoCode(eventId, codeId);
      if (!code) throw AppError.notFound('promo_code_not_found', 'No such promo code for this event.');
      if (await repo.promoCodeUsed(codeId)) {
        await repo.endPromoCode(codeId, nowAsWallClock());
        return { deleted: false, ended: true, msg: `${code.code} was used, so it is kept for the records and ended now.` };
      }
      await repo.deletePromoCode(codeId);
      return { deleted: true, ended: false, msg: `${code.code} deleted.` };
    },
  };
  return service;
}

export type TicketTypesService = ReturnType<typeof createTicketTypesService>;

/** How many ticket types an event sells, on the database or inside the caller's transaction (events' EventHoldings port). */
export function ticketTypeCount(executor: Executor, eventId: string): Promise<number> {
  return createTicketTypesRepository(executor).countForEvent(eventId);
}

/**
 * Sets a new event's kinds of ticket, in order, for seeding (bootstrap's demo events): the first takes over
 * the default type the event was created with. No ownership, stock or change-feed steps: nobody has bought
 * or cached anything yet.
 */
export async function seedTicketTypes(executor: Executor, eventId: string, types: Array<Omit<TicketTypeInput, '_id' | 'instalments' | 'dateId' | 'allDates'> & { instalments?: TicketTypeInput['instalments'] }>): Promise<void> {
  const repo = createTicketTypesRepository(executor);
  const [general] = await repo.listTypes(eventId);
  for (const [position, type] of types.entries()) {
    await repo.saveType(eventId, position, { ...(position === 0 && general ? { _id: general.id } : {}), ...type });
  }
}
