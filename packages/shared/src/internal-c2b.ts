import { z } from 'zod';

/**
 * Paybill payments (M-Pesa C2B): the buyer pays the shortcode from the M-Pesa menu with the order's code as the
 * account number. Daraja asks the payment service first (validation), then tells it the payment happened
 * (confirmation); the payment service asks the API server about the first and delivers the second to it
 * (/api/internal/payments/c2b/…). Both services and the Daraja simulator agree on these shapes here.
 */

/**
 * The order code a buyer types as the account number: letters and digits a person cannot confuse when reading it
 * off a screen (no 0/O, 1/I/L), so a typo is far likelier to be an unknown code than someone else's order.
 */
export const ORDER_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const ORDER_CODE_LENGTH = 7;

/** How a buyer's typed account number is compared with order codes: case and spaces do not matter. */
export const normaliseOrderCode = (typed: string) => typed.replace(/[\s-]/g, '').toUpperCase();

/** The CheckoutRequestID a Paybill payment is recorded under on the API server: its M-Pesa receipt, so a repeat finds it. */
export const paybillCheckoutId = (transId: string) => `c2b_${transId}`;

/** Daraja's validation and confirmation callback body (the same shape for both). Types are loose: Daraja's are. */
export const darajaC2bCallbackBody = z.object({
  TransactionType: z.coerce.string().max(40).optional(),
  TransID: z.coerce
    .string()
    .trim()
    .regex(/^[A-Z0-9]{6,20}$/, 'TransID is not valid.'),
  TransTime: z.coerce.string().max(20).optional(),
  TransAmount: z.coerce.number().positive().max(1_000_000),
  BusinessShortCode: z.coerce.string().max(20),
  BillRefNumber: z.coerce.string().max(40).default(''),
  InvoiceNumber: z.coerce.string().max(40).optional(),
  OrgAccountBalance: z.coerce.string().max(40).optional(),
  ThirdPartyTransID: z.coerce.string().max(40).optional(),
  MSISDN: z.coerce.string().max(100).default(''),
  FirstName: z.coerce.string().max(100).optional(),
  MiddleName: z.coerce.string().max(100).optional(),
  LastName: z.coerce.string().max(100).optional(),
});
export type DarajaC2bCallbackBody = z.infer<typeof darajaC2bCallbackBody>;

/** Validation answers: accept, or one of Daraja's rejection codes (each picks the SMS M-Pesa sends the payer). */
export const C2B_ACCEPT = '0';
export const C2B_REJECTIONS = {
  invalidAccount: 'C2B00012',
  invalidAmount: 'C2B00013',
  other: 'C2B00016',
} as const;
export const c2bResultCodeSchema = z.enum([C2B_ACCEPT, C2B_REJECTIONS.invalidAccount, C2B_REJECTIONS.invalidAmount, C2B_REJECTIONS.other]);

/** POST /api/internal/payments/c2b/validate: may this payment go ahead? */
export const c2bValidateRequest = z.object({
  billRefNumber: z.string().max(40),
  amount: z.number().positive(),
});
export const c2bValidateResponse = z.object({
  resultCode: c2bResultCodeSchema,
  resultDesc: z.string(),
});

/** POST /api/internal/payments/c2b/confirmations: a Paybill payment M-Pesa completed, to be settled once (by TransID). */
export const c2bConfirmationRequest = z.object({
  transId: z
    .string()
    .trim()
    .regex(/^[A-Z0-9]{6,20}$/, 'TransID is not valid.'),
  billRefNumber: z.string().max(40),
  amount: z.number().positive(),
  /** As M-Pesa sends it: masked (v2) or hashed (v1); a full 2547… number only from the simulator or old accounts. */
  msisdn: z.string().max(100),
  shortCode: z.string().max(20),
  transTime: z.string().max(20).optional(),
});
export const c2bConfirmationResponse = z.object({
  outcome: z.enum(['settled', 'duplicate', 'unmatched']),
  orderStatus: z.string().optional(),
  refunded: z.int().optional(),
});

export type C2bValidateRequest = z.infer<typeof c2bValidateRequest>;
export type C2bValidateResponse = z.infer<typeof c2bValidateResponse>;
export type C2bConfirmationRequest = z.infer<typeof c2bConfirmationRequest>;
export type C2bConfirmationResponse = z.infer<typeof c2bConfirmationResponse>;

/** Words Daraja refuses in callback URLs (any case): registration would fail, or callbacks silently never come. */
export const C2B_URL_FORBIDDEN_WORDS = ['m-pesa', 'mpesa', 'safaricom', 'exe', 'exec', 'cmd', 'sql', 'query'] as const;
export const forbiddenUrlWord = (url: string) => C2B_URL_FORBIDDEN_WORDS.find((word) => url.toLowerCase().includes(word));

/**
 * POST /internal/pull-transactions on the payment service (docs/decisions/reconciliation.md): the paybill
 * shortcode's C2B payments M-Pesa completed between two instants (Daraja's Pull Transactions API, every page).
 */
export const pullTransactionsRequest = z.object({ from: z.iso.datetime(), to: z.iso.datetime() }).meta({ id: 'PullTransactionsRequest' });
export const pulledTransaction = z.object({
  transId: z.string(),
  billRefNumber: z.string(),
  amount: z.number(),
  msisdn: z.string(),
  /** ISO-8601, as Daraja's trxDate. */
  completedAt: z.string(),
});
export const pullTransactionsResponse = z.object({ shortCode: z.string(), transactions: z.array(pulledTransaction) }).meta({ id: 'PullTransactionsResponse' });
export type PullTransactionsRequest = z.infer<typeof pullTransactionsRequest>;
export type PulledTransaction = z.infer<typeof pulledTransaction>;
export type PullTransactionsResponse = z.infer<typeof pullTransactionsResponse>;
