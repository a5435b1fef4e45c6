import { z } from 'zod';
import { LANGUAGES } from './languages.js';
import { MAX_TICKETS_PER_ORDER } from './limits.js';
import { KENYAN_PHONE_PATTERN } from './phone.js';

/**
 * The API server's /api/internal/payments, which only the payment service calls (X-Internal-Key): each
 * request and answer once, as zod schemas. The API server validates with them (and documents them in
 * /api/docs: the `.meta` below); the payment service types its client (api-server-client.ts) with the
 * inferred types. A field added here is seen by both sides at once.
 */

/** Ids are 24 lowercase hex characters (ObjectId-shaped) on both services. */
export const OBJECT_ID_PATTERN = /^[0-9a-f]{24}$/;
export const idParam = (field = 'id') => z.string().regex(OBJECT_ID_PATTERN, `${field} is not a valid id.`);

/** The statuses of a payment (one STK push) and of an order (the seats it holds), as the database stores them. */
export const PAYMENT_STATUSES = ['pending', 'success', 'failed', 'cancelled'] as const;
/** `reserved`: a deposit paid on an instalment plan, seats kept, tickets not issued yet; `lapsed`: its balance was not paid by the due date (docs/decisions/instalments.md). */
export const ORDER_STATUSES = ['pending', 'paid', 'failed', 'cancelled', 'expired', 'refund_due', 'reserved', 'lapsed'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** How many tickets a request asks for: free registration and checkout read it the same way. */
export const quantitySchema = z.coerce
  .number({ error: 'Quantity must be a number.' })
  .int('Quantity must be a whole number.')
  .min(1, 'Quantity must be at least 1.')
  .max(MAX_TICKETS_PER_ORDER, `At most ${MAX_TICKETS_PER_ORDER} tickets per purchase.`);

export const phoneSchema = z
  .string({ error: 'Phone number is required.' })
  .trim()
  .regex(KENYAN_PHONE_PATTERN, 'Enter the phone number as 254 followed by 9 digits, e.g. 254712345678.');

export const checkoutRequestIdSchema = z
  .string({ error: 'CheckoutRequestID is required.' })
  .trim()
  .min(1, 'CheckoutRequestID is required.')
  .max(100, 'CheckoutRequestID is not valid.')
  .regex(/^[A-Za-z0-9_.-]+$/, 'CheckoutRequestID is not valid.');

/** Seats of several ticket types in one purchase: each type once, at most MAX_TICKETS_PER_ORDER in all. */
export const orderItemsSchema = z
  .array(z.object({ typeId: idParam('typeId'), quantity: quantitySchema }), { error: 'items must be a list of {typeId, quantity}.' })
  .min(1, 'Choose at least one ticket.')
  .max(MAX_TICKETS_PER_ORDER, `At most ${MAX_TICKETS_PER_ORDER} ticket types per purchase.`)
  .refine((items) => new Set(items.map((item) => item.typeId)).size === items.length, 'Name each ticket type once.')
  .refine((items) => items.reduce((sum, item) => sum + item.quantity, 0) <= MAX_TICKETS_PER_ORDER, `At most ${MAX_TICKETS_PER_ORDER} tickets per purchase.`);

/** A promo code as a buyer types it (any case; stored and compared upper-case). */
export const promoCodeSchema = z
  .string({ error: 'Promo code must be text.' })
  .trim()
  .min(1, 'Enter a promo code.')
  .max(40, 'Promo codes are at most 40 characters.')
  .regex(/^[A-Za-z0-9_-]+$/, 'Promo codes are letters, digits, - and _ only.')
  .transform((code) => code.toUpperCase());

// --- Requests ------------------------------------------------------------------------------------------

/** POST /orders (with the buyer's bearer token): hold seats before the STK push. */
export const createOrderRequest = z.object({
  eventId: idParam('eventId'),
  /** Seats of the default type (the cheapest on sale) when `items` is absent. */
  quantity: quantitySchema.default(1),
  /** Seats per ticket type; absent for a client that knows nothing of types. */
  items: orderItemsSchema.optional(),
  /** Applied on the server only (the hold function); a refusal names the `promoCode` field. */
  promoCode: promoCodeSchema.optional(),
  /** The date picked on an event series (docs/decisions/event-series.md); left out on an event with one date. */
  dateId: idParam('dateId').optional(),
  phone: phoneSchema,
  /** Epoch ms after which the caller has given up: no seats are held for an answer nobody reads. */
  deadline: z.number().int().positive().optional(),
});

/** A guest buyer's optional email (tickets are mailed there as well as sent by SMS). */
export const guestEmailSchema = z.string({ error: 'Email must be text.' }).trim().max(254, 'Email is too long.').pipe(z.email('Enter a valid email address.')).transform((email) => email.toLowerCase());

/**
 * POST /guest-orders (no user token): a purchase by phone without an account; the phone's shadow account buys.
 * `language`: the buyer's browser's (Accept-Language), kept on the shadow account for the tickets' SMS and email.
 */
export const createGuestOrderRequest = createOrderRequest.extend({ guestEmail: guestEmailSchema.optional(), language: z.enum(LANGUAGES).optional() });

/** POST /orders/:orderId/abandon: Daraja refused the push, release the seats. */
export const abandonOrderRequest = z.object({ reason: z.string().max(500).default('push refused') });

/** POST /pushes: the CheckoutRequestID Daraja gave for an order. */
export const recordPushRequest = z.object({
  orderId: idParam('orderId'),
  checkoutRequestId: checkoutRequestIdSchema,
  merchantRequestId: z.string().max(100).optional(),
  /**
   * How long the buyer's push took until this call, in ms: from the payment service asking for the order to
   * recording its push, Daraja's answer included. The waiting room's adaptive rate follows it (the API server
   * alone cannot see the part of a push that happens beyond it). Absent when the push is recorded later.
   */
  pushMs: z.int().min(0).max(3_600_000).optional(),
});

/** POST /settle: a Daraja result (its callback, or its answer to an STK query). */
export const settleRequest = z.object({
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
  /** `callback`: an unsigned message that must match the push; `query`: Daraja's own answer to an STK query. */
  source: z.enum(['callback', 'query']),
  /**
   * A success callback M-Pesa agreed with: the payment service asked (STK query) before settling. Without
   * it a success from a callback is recorded unconfirmed, and the reconciler asks M-Pesa about it later.
   */
  providerConfirmed: z.boolean().optional(),
  /**
   * With a result from M-Pesa's own answer (`source:'query'`): the success a callback claimed for this push,
   * which that answer contradicts. Recorded as evidence (a leaked callback secret) for the admins and the audit.
   */
  contradicts: z
    .object({
      mpesaReceiptNumber: z.string().max(40).optional(),
      amount: z.number().finite().optional(),
    })
    .optional(),
});

/**
 * The most calls one batch carries (POST /pushes/batch, /settle/batch). The payment service sends a call
 * alone while no batch of its kind is on the way, and the calls that arrive meanwhile together in the next
 * one: under a burst of buyers one request carries many, with no delay added when it is quiet.
 */
export const INTERNAL_BATCH_MAX = 100;
const batchOf = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item).min(1).max(INTERNAL_BATCH_MAX) });

/** POST /pushes/batch: several POST /pushes in one request. */
export const recordPushesRequest = batchOf(recordPushRequest);
/** POST /settle/batch: several POST /settle in one request. */
export const settleManyRequest = batchOf(settleRequest);

/**
 * A batch's answer: for each item, in order, the status and body its own request would have been answered
 * with (a refusal's error body included), so the caller treats each exactly as before.
 */
export const batchResponse = z.object({ results: z.array(z.object({ status: z.int(), body: z.unknown() })) });

/** GET /pending: pushes still waiting for a result, for the reconciler. */
export const pendingPushesQuery = z.object({
  olderThan: z.coerce.number().int().min(0).max(86_400).default(30),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

// --- Responses -----------------------------------------------------------------------------------------

const id = z.string().regex(OBJECT_ID_PATTERN);
export const dateTimeSchema = z.string().meta({ format: 'date-time' });
export const shillingsSchema = z.int().meta({ description: 'Whole shillings.' });
export const paymentStatusSchema = z.enum(PAYMENT_STATUSES);
export const orderStatusSchema = z.enum(ORDER_STATUSES);

/** GET /whoami: the account the forwarded bearer token belongs to. */
export const whoamiResponse = z.object({ userId: id });

/** POST /orders: the held order. */
export const heldOrderResponse = z.object({
  orderId: id,
  amount: shillingsSchema,
  /** Shillings a promo code took off (0 without one). */
  discount: z.int().min(0),
  quantity: z.int(),
  holdExpiresAt: dateTimeSchema,
  /** The account number for paying the order from the M-Pesa menu (Paybill) instead of the prompt. */
  orderCode: z.string().optional(),
  accountReference: z.string(),
  transactionDesc: z.string(),
  eventTitle: z.string(),
  /** The series date the tickets are for (null: an event with one date, or all-dates passes). */
  dateId: id.nullable().optional(),
});

/** POST /orders/:orderId/abandon. */
export const releasedResponse = z.object({ released: z.boolean() });

/** POST /pushes. */
export const recordedPushResponse = z.object({ paymentId: id, checkoutRequestId: z.string() });

/** GET /status/:checkoutRequestId: a payment as its owner sees it (confirmPayment). */
export const paymentView = z
  .object({
    checkoutRequestId: z.string(),
    status: paymentStatusSchema,
    orderStatus: orderStatusSchema,
    success: z.boolean().meta({ description: 'Paid and the tickets issued.' }),
    resultDesc: z.string().meta({ description: 'What to tell the buyer.' }),
    resultCode: z.int().nullable().optional().meta({ description: "M-Pesa's ResultCode once the prompt finished (1032: cancelled on the phone, 1037: phone unreachable...), so a client can say it in the buyer's language." }),
    eventId: id,
    eventTitle: z.string(),
    amount: shillingsSchema,
    quantity: z.int(),
    mpesaReceiptNumber: z.string().nullable(),
    createdAt: dateTimeSchema,
    ageSeconds: z.int(),
    /** A paid guest checkout only: the signed token of its ticket page (`/t/<token>`), the one the SMS links to. */
    ticketToken: z.string().optional(),
  })
  .meta({ id: 'PaymentView' });

/** POST /settle. */
export const settleResponse = z.object({
  checkoutRequestId: z.string(),
  status: paymentStatusSchema,
  orderStatus: orderStatusSchema,
  ticketsIssued: z.int(),
  changed: z.boolean().meta({ description: 'False when the result was already recorded (a duplicate callback or a repeated query).' }),
  /** The payment as its owner's status call would describe it now, so the payment service can answer polls itself. */
  view: paymentView.optional(),
});

// --- The checkout's browser-facing bodies (the API server's /pay, and the payment service's /api that forwards there) ---

/** POST …/stkPush: parsed field by field by the API server's checkout (its refusals name the field). */
export const stkPushBody = z
  .object({
    phone: z.union([z.string(), z.number()]).optional().meta({ description: 'The paying phone, 254 followed by 9 digits.' }),
    amount: z.unknown().optional().meta({ description: 'Ignored: the server prices the order.' }),
    Order_ID: z.string().max(100).optional().meta({ description: '`<eventId>_<phone>`.' }),
    quantity: z.union([z.string(), z.number()]).optional(),
    items: z.unknown().optional().meta({ description: 'Seats per ticket type (`[{typeId, quantity}]`); absent buys `quantity` of the default type.' }),
    promoCode: z.unknown().optional(),
    dateId: z.unknown().optional().meta({ description: 'On an event series: the date picked (docs/decisions/event-series.md).' }),
    email: z.unknown().optional().meta({ description: "A guest buyer's email (no token): the tickets are mailed there as well as sent by SMS." }),
    answers: z
      .unknown()
      .optional()
      .meta({ description: "Answers to the event's checkout questions (`[{questionId, attendee?, value}]`); absent: not asked (answered later from the buyer's tickets)." }),
    instalments: z.unknown().optional().meta({ description: 'true: pay the deposit of the ticket type\'s instalment plan now and the rest by its due date (signed-in buyers, one instalment-enabled type per order).' }),
  })
  .meta({ id: 'StkPushRequest' });

/** POST …/confirmPayment: the CheckoutRequestID, in either spelling. */
export const confirmPaymentBody = z
  .object({ CheckoutRequestID: z.string().max(100).optional(), checkoutRequestId: z.string().max(100).optional() })
  .meta({ id: 'ConfirmPaymentRequest' });

// --- The payment service's own internal calls (the API server asks, the payment service speaks Daraja) ---

/** POST /internal/stk-push on the payment service: send the M-Pesa prompt for an order the API server holds. */
export const stkPushRequest = z.object({
  orderId: idParam('orderId'),
  amount: z.int().positive(),
  phone: phoneSchema,
  accountReference: z.string().min(1).max(40),
  transactionDesc: z.string().min(1).max(200),
});

/** Its answer: Daraja accepted the push (a refusal is an error body with the reason and M-Pesa's `errorCode`). */
export const stkPushResponse = z.object({
  checkoutRequestId: checkoutRequestIdSchema,
  merchantRequestId: z.string(),
  customerMessage: z.string(),
  /** With the Daraja simulator only: the path of the prompt's own phone page. */
  simulatorPromptPath: z.string().optional(),
});

/** POST /internal/stk-query on the payment service: ask M-Pesa where a push stands and settle it from the answer. */
export const stkQueryRequest = z.object({ checkoutRequestId: checkoutRequestIdSchema });
export const stkQueryResponse = z.object({ settled: z.boolean().meta({ description: 'M-Pesa gave a final answer and it was settled.' }) });

export type StkPushCall = z.infer<typeof stkPushRequest>;
export type StkPushAnswer = z.infer<typeof stkPushResponse>;

/** GET /pending. */
export const pendingPushesResponse = z.array(z.object({ checkoutRequestId: z.string(), createdAt: dateTimeSchema }));

export type CreateOrderRequest = z.infer<typeof createOrderRequest>;
export type CreateGuestOrderRequest = z.infer<typeof createGuestOrderRequest>;
export type RecordPushRequest = z.input<typeof recordPushRequest>;
export type SettleRequest = z.infer<typeof settleRequest>;
export type BatchResponse = z.infer<typeof batchResponse>;
export type WhoamiResponse = z.infer<typeof whoamiResponse>;
export type HeldOrder = z.infer<typeof heldOrderResponse>;
export type PaymentView = z.infer<typeof paymentView>;
export type SettleResponse = z.infer<typeof settleResponse>;
export type PendingPushes = z.infer<typeof pendingPushesResponse>;
