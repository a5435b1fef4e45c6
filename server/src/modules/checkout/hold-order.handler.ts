import type { CreateOrderRequest } from '@tukio/shared/internal-api';
import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { Logger } from '../../lib/logger.js';
import type { SoldOutNotes } from '../tickets/index.js';
import { readAndPrice, stockRefusalError } from './order-refusal.js';
import { createPaymentsRepository } from './payments.repository.js';
import { orderPlan } from './instalment-plan.js';
import type { OrderRequest, PricedOrder, PricingFacts } from './price-order.js';

/** A purchase to hold: the payment service's request, plus a guest buyer's email on the guest path. */
export type HoldOrderInput = CreateOrderRequest & {
  guestEmail?: string | undefined;
  /** Pay the deposit now and the rest by the due date (docs/decisions/instalments.md): one instalment-enabled type per order. */
  instalments?: boolean | undefined;
};

/** Why an order cannot be paid in instalments: said before anything is held. */
const instalmentsRefused = (reason: string) => new AppError(400, 'instalments_not_offered', reason, { field: 'instalments' });

export interface HoldOrderDeps {
  db: Database;
  logger: Logger;
  holdMinutes: number;
  /** Why a sold-out refusal happened when the buyer's waitlist offer expired. */
  waitlist?: SoldOutNotes | undefined;
}

/** Facts that change between the read and the lock are rare: a few tries, then the buyer is asked to try again. */
const PRICING_TRIES = 3;

/**
 * Holds seats for a paid purchase before its M-Pesa prompt: prices the order from the event's facts
 * (`priceOrder`), then `tukio_hold_priced_order` checks under the event's row lock that those facts still hold,
 * counts the seats, type capacities and promo uses, and inserts the order, so concurrent buyers never oversell.
 * Stale holds need no cleanup here: counting ignores them, and the reconciler's pass marks them expired.
 */
export function createHoldOrderHandler(deps: HoldOrderDeps) {
  const { db } = deps;
  const holdSeconds = deps.holdMinutes * 60;

  async function handle(userId: string, input: HoldOrderInput) {
    if (input.deadline !== undefined && Date.now() > input.deadline) throw new AppError(503, 'server_busy', 'Tukio is busy right now. Please try again in a moment.');
    const repo = createPaymentsRepository(db);
    const request: OrderRequest = { items: input.items, quantity: input.quantity, promoCode: input.promoCode, dateId: input.dateId };
    for (let attempt = 1; attempt <= PRICING_TRIES; attempt += 1) {
      // Changes to the date, place or price waiting for review pause new holds: a pause is one of the facts, so one
      // proposed after this read makes the hold's facts stale, and the next read refuses.
      const read = await readAndPrice(db, input.eventId, request, { refuseWhileSalesPaused: true });
      const { priced } = read;
      const plan = input.instalments ? instalmentPlanOf(read.facts, priced) : undefined;
      const held = await repo.holdPricedOrder({ eventId: input.eventId, userId, factsVersion: read.version, promoCode: input.promoCode, priced, phone: input.phone, guestEmail: input.guestEmail, holdSeconds });
      if (held.outcome === 'refused') throw await stockRefusalError(held.refusal, { facts: read.facts, promoCode: input.promoCode, userId, eventId: input.eventId, waitlist: deps.waitlist });
      if (held.outcome === 'held') {
        if (plan) await repo.setInstalmentPlan(held.orderId, plan);
        return {
          /** What the prompt asks for now: the deposit on an instalment plan, else the whole order. */
          due: plan?.deposit ?? priced.amount,
          instalments: plan ? { deposit: plan.deposit, dueAt: plan.dueAt.toISOString(), cancellationFee: plan.cancellationFee } : null,
          // The account number for paying from the M-Pesa menu instead of the prompt (docs/decisions/paybill.md).
          orderCode: held.orderCode,
          orderId: held.orderId,
          amount: priced.amount,
          discount: priced.discount,
          quantity: priced.quantity,
          holdExpiresAt: held.holdExpiresAt.toISOString(),
          // Daraja allows 12 characters; the order id's last 10 hex digits are unique enough to find it.
          accountReference: `TK${held.orderId.slice(-10)}`.toUpperCase(),
          transactionDesc: 'Tukio ticket',
          eventTitle: read.facts.event.title,
          dateId: priced.dateId,
        };
      }
      deps.logger.info(`event ${input.eventId} changed while an order was priced (try ${attempt}): pricing it again`);
    }
    throw new AppError(503, 'server_busy', 'Tukio is busy right now. Please try again in a moment.');
  }

  /** The order's plan: every line of one ticket type that offers instalments. */
  function instalmentPlanOf(facts: PricingFacts, priced: PricedOrder) {
    const typeIds = new Set(priced.lines.map((line) => line.typeId));
    const type = typeIds.size === 1 ? facts.types.find((candidate) => typeIds.has(candidate.id)) : undefined;
    if (!type?.instalments) throw instalmentsRefused('Instalments are offered for one ticket type per order, and only for types whose organiser allows them.');
    const plan = orderPlan(type.instalments, { amount: priced.amount, quantity: priced.quantity, feeAmount: priced.fee });
    if (plan.dueAt.getTime() <= Date.now()) throw instalmentsRefused('The due date of this plan has passed: pay in full instead.');
    return plan;
  }

  return { handle };
}

export type HoldOrderHandler = ReturnType<typeof createHoldOrderHandler>;
