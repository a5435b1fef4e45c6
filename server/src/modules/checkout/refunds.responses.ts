import {
  auditResponse,
  refundMethodSchema,
  refundReasonSchema,
  refundResultResponse,
  refundStatusSchema,
  REFUND_METHODS,
  REFUND_REASONS,
  REFUND_STATUSES,
} from '@tukio/shared/internal-refunds';
import { shillingsSchema as shillings } from '@tukio/shared/internal-api';
import { z } from 'zod';
import { pageSchema } from '../../lib/keyset-page.js';
import type { refunds } from './refunds.schema.js';
import { dateTimeString as dateTime, idString as id } from '../../lib/response-shapes.js';

/** Response bodies of the refund routes, for the API document (the service's return values say the same in TypeScript). */

/** The database's refund enums are the ones the internal API speaks: the compiler refuses a change to only one side. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
type Column<K extends 'status' | 'reason' | 'method'> = (typeof refunds)[K]['enumValues'][number];
const _enumsAgree: Same<Column<'status'>, (typeof REFUND_STATUSES)[number]> &
  Same<Column<'reason'>, (typeof REFUND_REASONS)[number]> &
  Same<Column<'method'>, (typeof REFUND_METHODS)[number]> = true;

export { auditResponse as audited, refundResultResponse as resulted };

const adminRefund = z.object({
  _id: id.meta({ description: "The order's id (as before the refund ledger)." }),
  orderId: id,
  eventId: id,
  eventTitle: z.string(),
  userId: id,
  username: z.string(),
  email: z.string(),
  quantity: z.int(),
  amount: shillings.meta({ description: "The payment's amount (see refundAmount for the refund's)." }),
  phoneNumber: z.string(),
  checkoutRequestId: z.string(),
  mpesaReceiptNumber: z.string().nullable(),
  paidAt: dateTime,
  flaggedAt: dateTime.meta({ description: 'When the refund was created.' }),
  refundId: id,
  status: refundStatusSchema,
  refundAmount: shillings,
  method: refundMethodSchema,
  attempts: z.int(),
  nextAttemptAt: dateTime,
  receipt: z.string().nullable().meta({ description: 'The M-Pesa TransactionID of the refund once it succeeded.' }),
  reason: refundReasonSchema,
});

export const adminRefunds = z.array(adminRefund);

export const adminRefundPage = pageSchema(adminRefund);

export const retried = z.object({ refundId: id, status: z.literal('due'), method: refundMethodSchema, attempts: z.int(), nextAttemptAt: dateTime });

export const cancelled = z.object({
  msg: z.string(),
  cancelled: z.literal(true),
  cancelledAt: dateTime,
  ticketsVoided: z.int(),
  ordersReleased: z.int().meta({ description: 'Pending orders whose seat holds were released.' }),
  refunds: z.int().meta({ description: 'Refunds created (one per successful payment with something left to refund).' }),
});

export const selfCancelled = z.object({
  msg: z.string(),
  cancelled: z.int().meta({ description: 'Tickets voided.' }),
  refundAmount: z.int().meta({ description: 'Whole shillings on their way back (0 for free tickets).' }),
});

const shillingsTotal = z.object({ count: z.int(), amount: shillings });

export const eventRefunds = z.object({
  eventId: id,
  tickets: z
    .object({
      cancelledByHolders: z.int(),
      voidedByCancellation: z.int(),
      transferred: z.int().meta({ description: 'Tickets handed to another holder (each replaced by a new valid one).' }),
    })
    .meta({ description: 'Void tickets of the event, by why they are void.' }),
  total: shillingsTotal,
  byStatus: z.object({ due: shillingsTotal, sent: shillingsTotal, succeeded: shillingsTotal, failed: shillingsTotal }),
  refunds: z.array(
    z.object({
      refundId: id,
      username: z.string().meta({ description: "The buyer's username (no phone or email); a guest buyer (no account) reads \"Guest 0722 ••• 111\"." }),
      guest: z.boolean().meta({ description: 'Bought as a guest (without an account).' }),
      amount: shillings,
      reason: refundReasonSchema,
      status: refundStatusSchema,
      receipt: z.string().nullable().meta({ description: 'The M-Pesa TransactionID once the refund succeeded.' }),
      createdAt: dateTime,
      updatedAt: dateTime.meta({ description: 'Its last change of status.' }),
    }),
  ),
});
