import { z } from 'zod';
import { checkoutRequestIdSchema, OBJECT_ID_PATTERN } from './internal-api.js';

/**
 * Refunds between the two services, as organiser payouts (./internal-payouts.ts), each request and answer once:
 * - the API server's refunds job asks the payment service to send one refund attempt (POST /internal/refunds) and,
 *   when its result is late, to ask Daraja about it (POST /internal/refunds/status);
 * - the payment service delivers each normalized result of an attempt to the API server in one call
 *   (POST /api/internal/refunds/result) through its on-disk result outbox, until acknowledged. The API server
 *   records a result once (a repeat answers `changed: false`).
 * And the payments audit (POST /api/internal/audit). All carry X-Internal-Key. The API server owns every rule
 * (what is due, by which method, retries); the payment service only speaks Daraja.
 */

export const REFUND_REASONS = ['sold_out', 'event_cancelled', 'late_payment', 'self_cancel', 'admin', 'duplicate_payment', 'overpayment', 'underpayment', 'reservation_lapsed'] as const;
export const REFUND_METHODS = ['reversal', 'b2c'] as const;
export const REFUND_STATUSES = ['due', 'sent', 'succeeded', 'failed'] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];
export type RefundMethod = (typeof REFUND_METHODS)[number];
export type RefundStatus = (typeof REFUND_STATUSES)[number];

export const refundMethodSchema = z.enum(REFUND_METHODS);
export const refundStatusSchema = z.enum(REFUND_STATUSES);
export const refundReasonSchema = z.enum(REFUND_REASONS);

/** Ours (`tukio-<refundId>-<n>`) when we sent the request; any Daraja-safe id when a provider reports it. */
export const originatorConversationIdSchema = z
  .string({ error: 'originatorConversationId is required.' })
  .trim()
  .min(1, 'originatorConversationId is required.')
  .max(100, 'originatorConversationId is not valid.')
  .regex(/^[A-Za-z0-9_.:-]+$/, 'originatorConversationId is not valid.');

const providerId = (field: string) =>
  z
    .string({ error: `${field} is required.` })
    .trim()
    .min(1, `${field} is required.`)
    .max(100, `${field} is not valid.`)
    .regex(/^[A-Za-z0-9_.:-]+$/, `${field} is not valid.`);

/** Daraja answers ResultCode as a number (0, 2001) or a string ("R000002"): the ledger keeps its text. */
const resultCodeSchema = z
  .union([z.string(), z.number()], { error: 'resultCode is required.' })
  .transform((value) => String(value).trim())
  .pipe(z.string().min(1, 'resultCode is required.').max(40, 'resultCode is not valid.'));

// --- Requests ------------------------------------------------------------------------------------------

/** Our OriginatorConversationID of one refund attempt: tukio-<refundId>-<attempt number>. */
export const REFUND_ATTEMPT_ID = /^tukio-[0-9a-f]{24}-\d{1,6}$/;
export const refundAttemptId = (refundId: string, attempt: number) => `tukio-${refundId}-${attempt}`;
const refundAttemptIdSchema = originatorConversationIdSchema.regex(REFUND_ATTEMPT_ID, 'originatorConversationId is not a refund attempt.');

/**
 * POST /internal/refunds (payment service): send one attempt to Daraja, once — a reversal of the STK `receipt`, or a
 * B2C BusinessPayment to `phone`. The same attempt again gets the first answer without a second request.
 */
export const sendRefundBody = z.object({
  originatorConversationId: refundAttemptIdSchema,
  method: refundMethodSchema,
  amount: z.number().int('amount is whole shillings.').positive(),
  phone: z
    .string()
    .regex(/^254[17]\d{8}$/, 'phone must be 254 followed by 9 digits.')
    .nullable()
    .meta({ description: "The payer's MSISDN, 2547XXXXXXXX; null when M-Pesa masked it (a Paybill payment: only a reversal can refund it)." }),
  receipt: z.string().max(100).nullable().meta({ description: 'The STK receipt a reversal reverses (null when unknown: the reversal is refused, nothing sent).' }),
  remarks: z.string().trim().min(1).max(100),
});
export type SendRefundBody = z.infer<typeof sendRefundBody>;

/**
 * Daraja's synchronous answer to one request, as the payment service gives it (200): queued (`accepted`, its result
 * follows through the outbox) or refused (`rejected`: nothing was paid). A 502 means it was sent and the answer was
 * lost (outcome unknown: ask for its status later); a 503 that it was never sent. Payouts answer the same.
 */
export const sendRequestAnswer = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('accepted'), conversationId: z.string() }),
  z.object({ outcome: z.literal('rejected'), resultCode: z.string(), resultDesc: z.string() }),
]);
export type SendRequestAnswer = z.infer<typeof sendRequestAnswer>;

/** POST /internal/refunds/status (payment service): ask Daraja (Transaction Status) about an attempt; 202, the answer comes as a result. */
export const refundStatusBody = z.object({
  originatorConversationId: refundAttemptIdSchema,
  method: refundMethodSchema,
  /** Daraja's ConversationID, when the API server recorded it. */
  conversationId: z.string().max(100).optional(),
});
export type RefundStatusBody = z.infer<typeof refundStatusBody>;

/**
 * POST /api/internal/refunds/result: Daraja's definite answer for an attempt. `callback` is its result callback,
 * `status-query` its Transaction Status answer (both delivered by the payment service's outbox), `rejected` a
 * synchronous refusal (nothing was paid: the API server records it from the send's answer). A queue timeout or a
 * network error is not a result and is never posted here.
 */
export const refundResultRequest = z.object({
  originatorConversationId: originatorConversationIdSchema,
  conversationId: providerId('conversationId').optional(),
  resultCode: resultCodeSchema,
  resultDesc: z.string().max(1000, 'resultDesc must be at most 1000 characters.').default(''),
  /** The refund's M-Pesa TransactionID (required for a success). */
  transactionId: providerId('transactionId').optional(),
  /** Whole shillings the provider says it paid back, when it says. */
  amount: z.coerce.number().nonnegative().max(1_000_000_000).optional(),
  source: z.enum(['callback', 'status-query', 'rejected']),
});

const providerAmount = z.coerce.number().nonnegative().max(1_000_000_000);

/** POST /audit: what the provider reports as completed, to compare with the ledger. */
export const auditRequest = z.object({
  payments: z
    .array(
      z.object({
        receipt: providerId('receipt'),
        amount: providerAmount,
        phone: z.coerce.string().max(20).default(''),
        checkoutRequestId: checkoutRequestIdSchema.optional(),
      }),
    )
    .max(20_000)
    .default([]),
  refunds: z
    .array(
      z.object({
        transactionId: providerId('transactionId'),
        originatorConversationId: originatorConversationIdSchema,
        amount: providerAmount,
        kind: refundMethodSchema,
      }),
    )
    .max(20_000)
    .default([]),
  /**
   * Organiser payouts M-Pesa completed: B2C named by our OriginatorConversationID (tukio-payout-…), B2B by
   * Daraja's ConversationID (its OriginatorConversationID is Daraja's own).
   */
  payouts: z
    .array(
      z.object({
        transactionId: providerId('transactionId'),
        originatorConversationId: originatorConversationIdSchema,
        conversationId: providerId('conversationId').optional(),
        amount: providerAmount,
        kind: z.enum(['b2c', 'b2b']),
      }),
    )
    .max(20_000)
    .default([]),
});

// --- Responses -----------------------------------------------------------------------------------------

const id = z.string().regex(OBJECT_ID_PATTERN);

export const refundResultResponse = z.object({
  refundId: id,
  status: refundStatusSchema,
  changed: z.boolean().meta({ description: 'False for a duplicate or late result: nothing changed.' }),
});

export const auditResponse = z.object({
  discrepancies: z.array(z.object({ kind: z.string(), detail: z.string() })),
  /** What agrees with the provider's books but a person should know (a forged success callback already voided). */
  notices: z.array(z.object({ kind: z.string(), detail: z.string() })).default([]),
  checked: z.object({ payments: z.int(), refunds: z.int(), payouts: z.int().default(0) }),
});

export type RefundResultRequest = z.infer<typeof refundResultRequest>;
export type AuditRequest = z.input<typeof auditRequest>;
export type RefundResultResponse = z.infer<typeof refundResultResponse>;
export type AuditResponse = z.infer<typeof auditResponse>;
