import {
  batchResponse,
  heldOrderResponse,
  orderStatusSchema as orderStatus,
  paymentStatusSchema as paymentStatus,
  paymentView,
  pendingPushesResponse,
  recordedPushResponse,
  releasedResponse,
  settleResponse,
  shillingsSchema as shillings,
  whoamiResponse,
  type OrderStatus,
  type PaymentStatus,
} from '@tukio/shared/internal-api';
import { refundReasonSchema, refundStatusSchema } from '@tukio/shared/internal-refunds';
import { z } from 'zod';
import type { orders, payments } from './payments.schema.js';
import { dateTimeString as dateTime, idString as id } from '../../lib/response-shapes.js';

/** Response bodies of the payment routes, for the API document (the service's return values say the same in TypeScript). */

/** The database's statuses are the ones the internal API answers with: the compiler refuses a change to only one side. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const _statusesAgree: Same<(typeof payments.status.enumValues)[number], PaymentStatus> & Same<(typeof orders.status.enumValues)[number], OrderStatus> = true;

/** The internal calls of the payment service: the same schemas type its client (@tukio/shared/internal-api). */
export {
  batchResponse as batchAnswers,
  heldOrderResponse as heldOrder,
  paymentView,
  pendingPushesResponse as pendingPushes,
  recordedPushResponse as recordedPush,
  releasedResponse as released,
  settleResponse as settled,
  whoamiResponse as whoami,
};

export const transaction = z
  .object({
    _id: id,
    name: z.string().meta({ description: "The event's title." }),
    eventId: id,
    checkoutRequestId: z.string(),
    phoneNumber: z.string(),
    amount: shillings,
    quantity: z.int(),
    date: dateTime,
    paymentStatus,
    orderStatus,
    resultDesc: z.string().nullable(),
    createdAt: dateTime,
    mpesaReceiptNumber: z.string().nullable(),
    refundStatus: refundStatusSchema.nullable().meta({ description: "The payment's latest refund: due, sent (to M-Pesa), succeeded or failed; null when none." }),
    refundAmount: shillings.nullable(),
    refundReceipt: z.string().nullable().meta({ description: 'The M-Pesa TransactionID of the refund once it succeeded.' }),
    fee: z.int().meta({ description: 'The platform fee inside `amount` (0 without one).' }),
    feeMode: z.enum(['absorbed', 'on_top']).meta({ description: '`on_top`: the buyer paid the fee beside the tickets; `absorbed`: it came out of their price.' }),
  })
  .meta({ id: 'Transaction' });

/** GET /api/guest-tickets/:token. */
export const guestTickets = z.object({
  orderStatus: orderStatus,
  event: z.object({
    _id: id,
    title: z.string(),
    date: dateTime,
    location: z.string(),
    status: z.string(),
    cancelReason: z.string().nullable().meta({ description: "The organiser's (or admin's) reason, once the event is cancelled." }),
    cancelledAt: dateTime.nullable(),
  }),
  tickets: z.array(
    z.object({
      _id: id,
      code: z.string(),
      holder: z.string(),
      checkedInAt: dateTime.nullable(),
      voidedAt: dateTime.nullable(),
      voidReason: z.enum(['event_cancelled', 'self_cancel', 'transferred']).nullable(),
    }),
  ),
  refunds: z
    .array(z.object({ amount: shillings, reason: refundReasonSchema, status: refundStatusSchema, receipt: z.string().nullable(), createdAt: dateTime }))
    .meta({ description: "The order's refunds, oldest first: what is coming back to the guest's M-Pesa and where it stands (`receipt` once paid)." }),
});
