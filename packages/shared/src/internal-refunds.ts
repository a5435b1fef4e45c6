import { z } from 'zod';
import { checkoutRequestIdSchema, dateTimeSchema, OBJECT_ID_PATTERN, shillingsSchema } from './internal-api.js';

/**
 * The API server's refund ledger routes, which only the payment service calls (X-Internal-Key):
 * /api/internal/refunds/* and /api/internal/audit. As with ./internal-api.ts, the API server validates
 * and documents with these schemas and the payment service types its client with the inferred types.
 */

export const REFUND_REASONS = ['sold_out', 'event_cancelled', 'late_payment', 'self_cancel', 'admin', 'duplicate_payment', 'overpayment', 'underpayment'] as const;
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

/** POST /refunds/claim: due refunds for the worker to send. */
export const claimRefundsRequest = z.object({
  limit: z.coerce.number().int('limit must be a whole number.').min(1, 'limit must be at least 1.').max(50, 'limit must be at most 50.').default(10),
});

/** POST /refunds/accepted: Daraja accepted the request (synchronous ResponseCode "0"). */
export const refundAcceptedRequest = z.object({
  originatorConversationId: originatorConversationIdSchema,
  conversationId: providerId('conversationId'),
});

/**
 * POST /refunds/result: Daraja's definite answer for an attempt. `callback` is its result callback,
 * `status-query` its Transaction Status answer, `rejected` a synchronous refusal (nothing was paid). A
 * queue timeout or a network error is not a result and is never posted here.
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

/** GET /refunds/unresolved: attempts still waiting for a result, for the reconciler's Transaction Status queries. */
export const unresolvedRefundsQuery = z.object({
  olderThan: z.coerce.number().int().min(0).max(7 * 86_400).default(60),
  limit: z.coerce.number().int().min(1).max(500).default(100),
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

/** POST /refunds/claim: each claimed refund with its new attempt. */
export const claimedRefundsResponse = z.array(
  z.object({
    refundId: id,
    originatorConversationId: z.string(),
    method: refundMethodSchema,
    amount: shillingsSchema,
    phone: z.string().meta({ description: "The payer's MSISDN, 2547XXXXXXXX." }),
    receipt: z.string().nullable().meta({ description: 'The STK receipt a reversal reverses (null when unknown).' }),
    remarks: z.string().max(100),
  }),
);

export const refundAcceptedResponse = z.object({ changed: z.boolean() });

export const refundResultResponse = z.object({
  refundId: id,
  status: refundStatusSchema,
  changed: z.boolean().meta({ description: 'False for a duplicate or late result: nothing changed.' }),
});

export const unresolvedRefundsResponse = z.array(
  z.object({ originatorConversationId: z.string(), conversationId: z.string().nullable(), method: refundMethodSchema, sentAt: dateTimeSchema }),
);

export const auditResponse = z.object({
  discrepancies: z.array(z.object({ kind: z.string(), detail: z.string() })),
  /** What agrees with the provider's books but a person should know (a forged success callback already voided). */
  notices: z.array(z.object({ kind: z.string(), detail: z.string() })).default([]),
  checked: z.object({ payments: z.int(), refunds: z.int(), payouts: z.int().default(0) }),
});

export type ClaimRefundsRequest = z.input<typeof claimRefundsRequest>;
export type RefundAcceptedRequest = z.infer<typeof refundAcceptedRequest>;
export type RefundResultRequest = z.infer<typeof refundResultRequest>;
export type UnresolvedRefundsQuery = z.input<typeof unresolvedRefundsQuery>;
export type AuditRequest = z.input<typeof auditRequest>;
export type ClaimedRefunds = z.infer<typeof claimedRefundsResponse>;
export type RefundResultResponse = z.infer<typeof refundResultResponse>;
export type UnresolvedRefunds = z.infer<typeof unresolvedRefundsResponse>;
export type AuditResponse = z.infer<typeof auditResponse>;
