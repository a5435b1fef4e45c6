import { z } from 'zod';
import { originatorConversationIdSchema, sendRequestAnswer } from './internal-refunds.js';

/**
 * Organiser payouts between the two services, each request and answer once:
 * - the API server asks the payment service to send one payout attempt (POST /internal/payouts) and, when a
 *   result is late, to ask Daraja about it (POST /internal/payouts/status);
 * - the payment service delivers each normalized result of an attempt to the API server in one call
 *   (POST /api/internal/payouts/results), retried until acknowledged and journaled on disk so a kill -9 of
 *   either process loses nothing. The API server records a result once (a repeat is acknowledged and changes
 *   nothing).
 * Both calls carry X-Internal-Key. The API server owns every rule (what is due, to whom, retries); the payment
 * service only speaks Daraja: B2C BusinessPayment to an M-Pesa number, B2B BusinessPayBill to a Paybill with an
 * account number, B2B BusinessBuyGoods to a Till.
 */

export const PAYOUT_METHODS = ['mpesa', 'paybill', 'till'] as const;
export type PayoutMethod = (typeof PAYOUT_METHODS)[number];
export const payoutMethodSchema = z.enum(PAYOUT_METHODS, { error: 'method must be mpesa, paybill or till.' });

/** Our OriginatorConversationID of one payout attempt: tukio-payout-<payoutId>-<attempt number>. */
export const PAYOUT_ATTEMPT_ID = /^tukio-payout-[0-9a-f]{24}-\d{1,6}$/;
export const payoutAttemptId = (payoutId: string, attempt: number) => `tukio-payout-${payoutId}-${attempt}`;
export const payoutAttemptIdSchema = originatorConversationIdSchema.regex(PAYOUT_ATTEMPT_ID, 'originatorConversationId is not a payout attempt.');

/** Daraja's B2C minimum is Ksh 10; nothing above one M-Pesa transaction's limit is sent in one request. */
export const PAYOUT_MIN_AMOUNT = 10;
export const PAYOUT_MAX_AMOUNT = 250_000;

/** Where a payout goes: the confirmed destination the organiser chose. */
export const payoutDestinationSchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('mpesa'), phone: z.string().regex(/^254[17]\d{8}$/, 'phone must be 254 followed by 9 digits.') }),
  z.object({
    method: z.literal('paybill'),
    shortcode: z.string().regex(/^\d{5,7}$/, 'A Paybill number has 5 to 7 digits.'),
    accountReference: z.string().trim().min(1, 'The Paybill account number is required.').max(13, 'The Paybill account number has at most 13 characters.'),
  }),
  z.object({ method: z.literal('till'), shortcode: z.string().regex(/^\d{5,7}$/, 'A Till number has 5 to 7 digits.') }),
]);
export type PayoutDestination = z.infer<typeof payoutDestinationSchema>;

/** POST /internal/payouts (payment service): send one attempt to Daraja, once. */
export const sendPayoutBody = z.object({
  originatorConversationId: payoutAttemptIdSchema,
  amount: z.number().int('amount is whole shillings.').min(PAYOUT_MIN_AMOUNT).max(PAYOUT_MAX_AMOUNT),
  destination: payoutDestinationSchema,
  /** Shown on the organiser's M-Pesa message (Daraja's Remarks, at most 100 characters). */
  remarks: z.string().trim().min(1).max(100),
});
export type SendPayoutBody = z.infer<typeof sendPayoutBody>;

/**
 * Its answer (200): Daraja queued it (`accepted`, a result follows through /api/internal/payouts/results) or
 * refused it synchronously (`rejected`: nothing was paid; the attempt failed). A 502 means it was sent and
 * Daraja's answer was lost (outcome unknown: ask for its status later); a 503 means it was never sent.
 */
export const sendPayoutAnswer = sendRequestAnswer;
export type SendPayoutAnswer = z.infer<typeof sendPayoutAnswer>;

/** POST /internal/payouts/status (payment service): ask Daraja (Transaction Status) about an attempt; 202, the answer comes as a result. */
export const payoutStatusBody = z.object({
  originatorConversationId: payoutAttemptIdSchema,
  destination: payoutDestinationSchema,
  /** Daraja's ConversationID or the payout's TransactionID, when known. */
  conversationId: z.string().max(100).optional(),
});
export type PayoutStatusBody = z.infer<typeof payoutStatusBody>;

/**
 * POST /api/internal/payouts/results (API server): one definite result of an attempt. `callback` is Daraja's
 * result callback, `status-query` its Transaction Status answer. A queue timeout is not a result and is never
 * delivered (the API server asks for the status of an attempt with no result after a while). ResultCode "0"
 * is paid (with the M-Pesa transactionId); anything else failed and paid nothing.
 */
export const payoutResultBody = z.object({
  originatorConversationId: payoutAttemptIdSchema,
  conversationId: z.string().max(100).optional(),
  resultCode: z.union([z.string(), z.number()]).transform((value) => String(value).trim()).pipe(z.string().min(1).max(40)),
  resultDesc: z.string().max(1000).default(''),
  transactionId: z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/).optional(),
  /** Whole shillings M-Pesa says it paid, when it says. */
  amount: z.number().nonnegative().max(1_000_000_000).optional(),
  /** The charge M-Pesa took for the payout, when its result names one. */
  charge: z.number().nonnegative().max(1_000_000).optional(),
  source: z.enum(['callback', 'status-query']),
});
export type PayoutResultBody = z.infer<typeof payoutResultBody>;
/** Its answer (200): recorded now, or already known (a redelivery). Any non-2xx means "deliver again later". */
export const payoutResultAnswer = z.object({ recorded: z.boolean() });
