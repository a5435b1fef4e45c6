import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { createBatcher } from '@tukio/shared/node/batcher';
import { createPaymentsRepository } from './payments.repository.js';

type Push = { orderId: string; checkoutRequestId: string; merchantRequestId?: string | undefined };
/** A push towards a reservation names its amount and phone (docs/decisions/instalments.md). */
type ReservationPush = Push & { amount?: number | undefined; phone?: string | undefined };

/**
 * Records the STK push Daraja accepted for a held order (the payment row, keyed by CheckoutRequestID). Pushes
 * recorded while a recording is running go together in the next statement: a burst of buyers costs one round
 * trip and one commit per batch instead of per push. A repeated call for the same push answers the same row.
 */
export function createRecordPushHandler(deps: { db: Database }) {
  const repo = () => createPaymentsRepository(deps.db);
  const insertPush = createBatcher((inputs: Push[]) => (inputs.length === 1 ? repo().insertPaymentForOrder(inputs[0]!).then((row) => [row]) : repo().insertPaymentsForOrders(inputs)), {
    maxBatch: 200,
  });

  async function handle(input: ReservationPush) {
    // Pushes towards reservations are few: recorded one by one, with their own amount and phone.
    const recorded = input.amount === undefined ? await insertPush(input) : await repo().insertPaymentForOrder(input);
    if (recorded) return { paymentId: recorded.id, checkoutRequestId: input.checkoutRequestId };
    // Nothing inserted: a repeated call for the same push, or an unknown order.
    const existing = await repo().findPayment(input.checkoutRequestId);
    if (existing?.orderId === input.orderId) return { paymentId: existing.id, checkoutRequestId: existing.checkoutRequestId };
    if (existing) throw AppError.conflict('checkout_request_other_order', 'This CheckoutRequestID belongs to another order.');
    throw AppError.notFound('order_not_found', 'Unknown order.');
  }
  return { handle };
}
