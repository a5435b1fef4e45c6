import type { Database } from '../../db/database.js';
import type { SoldOutNotes } from '../tickets/index.js';
import { readAndPrice, stockRefusalError } from './order-refusal.js';
import { createPaymentsRepository } from './payments.repository.js';
import type { OrderRequest } from './price-order.js';

/**
 * What a purchase would cost now, and whether its seats are there: the same `priceOrder` and the same stock rule
 * as the hold, read without a lock and holding nothing (a quote is advice; the hold decides).
 */
export function createQuoteOrderHandler(deps: { db: Database; waitlist?: SoldOutNotes | undefined }) {
  async function handle(eventId: string, buyerId: string, request: OrderRequest) {
    const { facts, priced } = await readAndPrice(deps.db, eventId, request);
    const short = await createPaymentsRepository(deps.db).stockRefusal({ eventId, userId: buyerId, lines: priced.lines, promoId: priced.promoId, now: new Date(), dateId: priced.dateId });
    if (short) throw await stockRefusalError(short, { facts, promoCode: request.promoCode, userId: buyerId, eventId, waitlist: deps.waitlist });
    return {
      eventId,
      quantity: priced.quantity,
      amount: priced.amount,
      discount: priced.discount,
      subtotal: priced.subtotal,
      promoCode: request.promoCode ?? null,
      fee: priced.fee,
      feeMode: priced.feeMode,
    };
  }
  return { handle };
}

export type QuoteOrderHandler = ReturnType<typeof createQuoteOrderHandler>;
