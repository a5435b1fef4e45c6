import {
  abandonOrderRequest,
  checkoutRequestIdSchema,
  createGuestOrderRequest,
  createOrderRequest,
  pendingPushesQuery,
  recordPushesRequest,
  recordPushRequest,
  settleManyRequest,
  settleRequest,
} from '@tukio/shared/internal-api';
import { z } from 'zod';
import { idParam } from '../../lib/validate.js';

/** The internal calls of the payment service: the same schemas type its client (@tukio/shared/internal-api). */
export {
  abandonOrderRequest as abandonOrderBody,
  createGuestOrderRequest as createGuestOrderBody,
  createOrderRequest as createOrderBody,
  pendingPushesQuery as pendingQuery,
  recordPushesRequest as recordPushesBody,
  recordPushRequest as recordPushBody,
  settleManyRequest as settleManyBody,
  settleRequest as settleBody,
};

export const checkoutParams = z.object({ checkoutRequestId: checkoutRequestIdSchema });
export const orderParams = z.object({ orderId: idParam('orderId') });
export const userIdParams = z.object({ userId: idParam('userId') });

export const saveTransactionBody = z.object({
  userId: z.string().optional(),
  transactionData: z.object(
    {
      checkoutRequestId: checkoutRequestIdSchema,
      eventId: z.string().optional(),
      amount: z.unknown().optional(),
      name: z.unknown().optional(),
      phoneNumber: z.unknown().optional(),
      paymentStatus: z.unknown().optional(),
    },
    { error: 'transactionData is required.' },
  ),
});

/** `<orderId>.<mac>` (guest-ticket-links.ts); anything else is simply not found. */
export const guestTicketParams = z.object({ token: z.string().min(1).max(100) });
