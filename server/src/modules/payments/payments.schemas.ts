import { z } from 'zod';
import { idParam } from '../../lib/validate.js';
import { MAX_TICKETS_PER_ORDER } from '../tickets/tickets.service.js';

export const phoneSchema = z
  .string({ error: 'Phone number is required.' })
  .trim()
  .regex(/^254\d{9}$/, 'Enter the phone number as 254 followed by 9 digits, e.g. 254712345678.');

export const quantitySchema = z.coerce
  .number({ error: 'Quantity must be a number.' })
  .int('Quantity must be a whole number.')
  .min(1, 'Quantity must be at least 1.')
  .max(MAX_TICKETS_PER_ORDER, `At most ${MAX_TICKETS_PER_ORDER} tickets per purchase.`);

export const checkoutRequestIdSchema = z
  .string({ error: 'CheckoutRequestID is required.' })
  .trim()
  .min(1, 'CheckoutRequestID is required.')
  .max(100, 'CheckoutRequestID is not valid.')
  .regex(/^[A-Za-z0-9_.-]+$/, 'CheckoutRequestID is not valid.');

export const createOrderBody = z.object({
  eventId: idParam('eventId'),
  quantity: quantitySchema.default(1),
  phone: phoneSchema,
  /** Epoch ms after which the caller has given up: no seats are held for an answer nobody reads. */
  deadline: z.number().int().positive().optional(),
});

export const abandonOrderBody = z.object({ reason: z.string().max(500).default('push refused') });

export const recordPushBody = z.object({
  orderId: idParam('orderId'),
  checkoutRequestId: checkoutRequestIdSchema,
  merchantRequestId: z.string().max(100).optional(),
});

export const settleBody = z.object({
  checkoutRequestId: checkoutRequestIdSchema,
  merchantRequestId: z.string().max(100).optional(),
  // Daraja's codes are small; the column is a 32-bit integer, so anything wider is not a real result.
  resultCode: z.coerce
    .number({ error: 'ResultCode must be a number.' })
    .int('ResultCode must be a whole number.')
    .min(-2_147_483_648, 'ResultCode is not valid.')
    .max(2_147_483_647, 'ResultCode is not valid.'),
  resultDesc: z.string().max(1000).default(''),
  amount: z.coerce.number().nonnegative().optional(),
  mpesaReceiptNumber: z
    .string()
    .trim()
    .regex(/^[A-Z0-9]{6,20}$/, 'MpesaReceiptNumber is not valid.')
    .optional(),
  phone: z.coerce.string().max(20).optional(),
  transactionDate: z.coerce.string().max(20).optional(),
  source: z.enum(['callback', 'query']),
  /**
   * What the payment service expects the order to be (it created it): lets a success be settled in
   * one statement that checks them. A hint only: anything that does not match takes the full path.
   */
  eventId: idParam('eventId').optional(),
  quantity: z.coerce.number().int().min(1).max(MAX_TICKETS_PER_ORDER).optional(),
});

export const pendingQuery = z.object({
  olderThan: z.coerce.number().int().min(0).max(86_400).default(30),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

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
