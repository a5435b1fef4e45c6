import { MPESA_TRANSACTION_MAX } from '@tukio/shared/limits';
import type { Executor } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { formatWallClock, nowAsWallClock } from '../../lib/event-clock.js';
import { salesPausedError } from '../events/index.js';
import { soldOutError, ticketMessages, type SoldOutNotes } from '../tickets/index.js';
import { createPaymentsRepository, type StockRefusal } from './payments.repository.js';
import { priceOrder, type OrderRequest, type PricingFacts, type PricingRefusal } from './price-order.js';

const plural = (count: number, word: string) => `${count} ${word} ticket${count === 1 ? '' : 's'}`;

/** Why an order cannot be priced, in the buyer's words, with the field or type it is about (quote and hold alike). */
export function pricingRefusalError(refusal: PricingRefusal): AppError {
  switch (refusal.reason) {
    case 'cancelled':
      return AppError.conflict('event_cancelled', ticketMessages.cancelled);
    case 'not_open':
      return new AppError(400, 'event_not_open', ticketMessages.notOpen);
    case 'past':
      return new AppError(400, 'event_past', ticketMessages.past);
    case 'free':
      return new AppError(400, 'event_free', 'This event is free: register without paying.');
    case 'not_on_sale':
      return AppError.conflict('tickets_not_on_sale', 'No tickets are on sale for this event right now.');
    case 'type_not_found':
      return AppError.badRequest('ticket_type_not_sold', 'That ticket type is not sold for this event.', 'items');
    case 'type_not_started': {
      const at = formatWallClock(refusal.at);
      return AppError.conflict('ticket_type_sales_not_started', `${refusal.typeName} tickets go on sale at ${at}.`, { params: { name: refusal.typeName, at } });
    }
    case 'type_ended': {
      const at = formatWallClock(refusal.at);
      return AppError.conflict('ticket_type_sales_ended', `${refusal.typeName} tickets are no longer on sale (sales ended ${at}).`, { params: { name: refusal.typeName, at } });
    }
    case 'type_max':
      return AppError.badRequest('ticket_type_max_per_order', `You can buy at most ${plural(refusal.max, refusal.typeName)} per order.`, {
        field: 'items',
        params: { name: refusal.typeName, max: refusal.max },
      });
    case 'promo_unknown':
      return AppError.badRequest('promo_code_invalid', `The promo code ${refusal.code} is not valid for this event.`, { field: 'promoCode', params: { code: refusal.code } });
    case 'promo_not_valid_now':
      return AppError.badRequest('promo_code_inactive', `The promo code ${refusal.code} cannot be used right now.`, { field: 'promoCode', params: { code: refusal.code } });
    case 'promo_not_for_types':
      return AppError.badRequest('promo_code_not_applicable', `The promo code ${refusal.code} does not apply to the tickets you chose.`, { field: 'promoCode', params: { code: refusal.code } });
    case 'amount_too_large':
      return AppError.badRequest(
        'order_amount_too_large',
        `This order costs Ksh ${refusal.amount}, more than one M-Pesa payment can move (Ksh ${MPESA_TRANSACTION_MAX}). Buy fewer tickets per order.`,
        { field: 'quantity', params: { amount: refusal.amount, max: MPESA_TRANSACTION_MAX } },
      );
    case 'no_dates':
      return AppError.badRequest('event_has_one_date', 'This event has one date: leave the date out.', 'dateId');
    case 'date_required':
      return AppError.badRequest('event_date_required', 'This event has several dates: choose one.', 'dateId');
    case 'date_not_found':
      return AppError.conflict('event_date_unavailable', 'That date is not on sale (it was cancelled or is not a date of this event).', { field: 'dateId' });
    case 'date_past':
      return AppError.conflict('event_date_past', 'That date has already started: choose a later one.', { field: 'dateId' });
    case 'date_mixed':
      return AppError.badRequest('event_date_pass_mixed', 'Buy a pass for all dates on its own, apart from tickets for one date.', 'items');
    case 'type_other_date':
      return AppError.badRequest('ticket_type_other_date', `${refusal.typeName} tickets are for another date.`, { field: 'items', params: { name: refusal.typeName } });
  }
}

/** Why the seats do not fit, in the buyer's words (a sold-out event may say where the buyer stands on its waitlist). */
export async function stockRefusalError(
  refusal: StockRefusal,
  context: { facts: PricingFacts; promoCode: string | undefined; userId: string; eventId: string; waitlist: SoldOutNotes | undefined },
): Promise<AppError> {
  switch (refusal.outcome) {
    case 'sold_out':
      return soldOutError(context.waitlist, context.userId, context.eventId, refusal.seatsLeft);
    case 'type_sold_out': {
      const name = context.facts.types.find((type) => type.id === refusal.detail)?.name ?? '';
      return refusal.seatsLeft > 0
        ? AppError.conflict('ticket_type_seats_left', `Only ${plural(refusal.seatsLeft, name)} left.`, { params: { name, seatsLeft: refusal.seatsLeft } })
        : AppError.conflict('ticket_type_sold_out', `${name} tickets are sold out.`, { params: { name } });
    }
    case 'date_sold_out':
      return refusal.seatsLeft > 0
        ? AppError.conflict('event_date_seats_left', `Only ${refusal.seatsLeft} seat${refusal.seatsLeft === 1 ? '' : 's'} left on that date.`, { field: 'dateId', params: { seatsLeft: refusal.seatsLeft } })
        : AppError.conflict('event_date_sold_out', 'That date is sold out: choose another date.', { field: 'dateId' });
    case 'date_unavailable':
      return AppError.conflict('event_date_unavailable', 'That date is not on sale (it was cancelled or is not a date of this event).', { field: 'dateId' });
    case 'promo_used_up': {
      const code = (context.promoCode ?? '').toUpperCase();
      return AppError.conflict('promo_code_used_up', `The promo code ${code} has been used up.`, { field: 'promoCode', params: { code } });
    }
  }
}

/**
 * The step the quote and the hold share: reads the event's pricing facts and prices the request, or throws the
 * refusal in the buyer's words (404 for an event that does not exist).
 */
export async function readAndPrice(executor: Executor, eventId: string, request: OrderRequest, options: { refuseWhileSalesPaused?: boolean } = {}) {
  const read = await createPaymentsRepository(executor).pricingFacts(eventId, request.promoCode);
  if (!read) throw AppError.notFound('event_not_found', ticketMessages.notFound);
  if (options.refuseWhileSalesPaused && read.facts.salesPaused) throw salesPausedError();
  const { priced, refusal } = priceOrder(read.facts, request, nowAsWallClock());
  if (refusal) throw pricingRefusalError(refusal);
  return { ...read, priced };
}
