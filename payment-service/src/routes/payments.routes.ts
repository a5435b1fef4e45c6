import { checkoutRequestIdSchema, guestEmailSchema, OBJECT_ID_PATTERN, orderItemsSchema, promoCodeSchema } from '@tukio/shared/internal-api';
import { languageFromAcceptLanguage } from '@tukio/shared/languages';
import { MAX_TICKETS_PER_ORDER } from '@tukio/shared/limits';
import { bearerToken } from '@tukio/shared/node/bearer-token';
import { normaliseKenyanPhone } from '@tukio/shared/phone';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { ipKeyGenerator, rateLimit, type Store } from 'express-rate-limit';
import { z } from 'zod';
import { confirmFailed, initiateFailed, type CheckoutInput, type CheckoutService } from '../checkout/checkout.service.js';
import type { StkPushResponse } from '@tukio/shared/daraja-protocol';
import type { StkRateLimit } from '../config.js';
import { abandonedSignal } from '../abandoned-request.js';
import { clientAddress } from '../forwarded.js';

/**
 * The account the API server verified for this request (`verifyBuyer` puts it in res.locals); a guest
 * purchase (no token) counts against its phone, the account it buys through.
 */
const verifiedAccountKey = (_req: Request, res: Response) => (res.locals.userId ? `user:${String(res.locals.userId)}` : `guest:${String(res.locals.guestPhone)}`);

/** The phone a push would prompt (normalised), whoever asks; undefined for a number the route will refuse anyway. */
const destinationPhone = (req: Request) => normaliseKenyanPhone((req.body as { phone?: unknown } | undefined)?.phone);

/** A day, the per-account daily budget's window. */
const DAY_MS = 24 * 60 * 60 * 1000;

const stkPushBody = z.object({
  phone: z.union([z.string(), z.number()]).optional(),
  amount: z.unknown().optional(),
  Order_ID: z.string().max(100).optional(),
  quantity: z.union([z.string(), z.number()]).optional(),
  /** Seats per ticket type ([{typeId, quantity}]); absent buys `quantity` of the default type. */
  items: z.unknown().optional(),
  promoCode: z.unknown().optional(),
  /** A guest buyer's email (no token): the tickets are mailed there as well as sent by SMS. */
  email: z.unknown().optional(),
});

const confirmBody = z.object({
  CheckoutRequestID: z.string().max(100).optional(),
  checkoutRequestId: z.string().max(100).optional(),
});

/** The stkPush request as the checkout service takes it; a 400 naming the field otherwise. */
function parseStkPush(body: unknown): CheckoutInput {
  const parsed = stkPushBody.safeParse(body ?? {});
  if (!parsed.success) throw initiateFailed(400, 'bad_request', 'the request is not valid.');
  const phone = normaliseKenyanPhone(parsed.data.phone);
  if (!phone) throw initiateFailed(400, 'phone_invalid', 'enter a Safaricom phone number as 254 followed by 9 digits, e.g. 254712345678.', { field: 'phone' });
  const eventId = (parsed.data.Order_ID ?? '').split('_')[0] ?? '';
  if (!OBJECT_ID_PATTERN.test(eventId)) throw initiateFailed(400, 'order_id_invalid', 'Order_ID must be "<eventId>_<phone>".', { field: 'Order_ID' });
  const quantity = parsed.data.quantity === undefined || parsed.data.quantity === '' ? 1 : Number(parsed.data.quantity);
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_TICKETS_PER_ORDER) {
    throw initiateFailed(400, 'quantity_invalid', `choose between 1 and ${MAX_TICKETS_PER_ORDER} tickets.`, { field: 'quantity', params: { max: MAX_TICKETS_PER_ORDER } });
  }
  const items = parsed.data.items === undefined ? undefined : orderItemsSchema.safeParse(parsed.data.items);
  if (items && !items.success) throw initiateFailed(400, 'validation_failed', firstIssue(items.error), { field: 'items', params: { field: 'items', kind: 'invalid' } });
  const promo = parsed.data.promoCode === undefined || parsed.data.promoCode === '' ? undefined : promoCodeSchema.safeParse(parsed.data.promoCode);
  if (promo && !promo.success) throw initiateFailed(400, 'validation_failed', firstIssue(promo.error), { field: 'promoCode', params: { field: 'promoCode', kind: 'invalid' } });
  const email = parsed.data.email === undefined || parsed.data.email === '' ? undefined : guestEmailSchema.safeParse(parsed.data.email);
  if (email && !email.success) throw initiateFailed(400, 'validation_failed', firstIssue(email.error), { field: 'email', params: { field: 'email', kind: 'invalid_email' } });
  // `amount` is ignored on purpose: the API server prices the order (types, promo code and all).
  return { eventId, quantity, phone, ...(items ? { items: items.data } : {}), ...(promo ? { promoCode: promo.data } : {}), ...(email ? { guestEmail: email.data } : {}) };
}

/** A zod failure's first message, lower-cased to follow "Payment initiation failed: ". */
function firstIssue(error: z.ZodError): string {
  const message = error.issues[0]?.message ?? 'the request is not valid.';
  return message.charAt(0).toLowerCase() + message.slice(1);
}

/** The CheckoutRequestID to confirm (either spelling), or a 400. */
function parseConfirm(body: unknown): string {
  const parsed = confirmBody.safeParse(body ?? {});
  const checkoutRequestId = checkoutRequestIdSchema.safeParse(parsed.success ? (parsed.data.CheckoutRequestID ?? parsed.data.checkoutRequestId) : undefined);
  if (!checkoutRequestId.success) throw confirmFailed(400, 'no_payment_to_confirm', 'No payment to confirm');
  return checkoutRequestId.data;
}

/**
 * POST /api/stkPush and /api/confirmPayment, the browser-facing checkout: parse, call the checkout
 * service, shape the answer. Failures are PaymentServiceErrors answered by the one error handler.
 */
export function createPaymentsRouter(deps: {
  checkout: CheckoutService;
  rateLimit: StkRateLimit;
  /** Where each stkPush budget is counted (Redis, shared by every instance); undefined = this process's memory. */
  rateLimitStore?: ((budget: 'address' | 'account' | 'phone' | 'account-day') => Store) | undefined;
  /** With the Daraja simulator: the link to the prompt's own simulated phone page, for its buyer only. */
  simulatorUrl?: ((res: Response, push: StkPushResponse) => string | undefined) | undefined;
}) {
  const { checkout } = deps;
  const router = Router();
  const tooMany: RequestHandler = (_req, _res, next) => next(initiateFailed(429, 'too_many_payment_attempts', 'too many payment attempts. Please wait a few minutes and try again.'));
  const perIp: RequestHandler = rateLimit({
    ...(deps.rateLimitStore && { store: deps.rateLimitStore('address') }),
    windowMs: deps.rateLimit.windowMs,
    limit: deps.rateLimit.perIp,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: tooMany,
    // The buyer's address, also through the API server's /pay (else one shared address for everyone).
    keyGenerator: (req, res) => ipKeyGenerator(clientAddress(req, res)),
  });
  const perUser: RequestHandler = rateLimit({
    ...(deps.rateLimitStore && { store: deps.rateLimitStore('account') }),
    windowMs: deps.rateLimit.windowMs,
    limit: deps.rateLimit.perUser,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: tooMany,
    keyGenerator: verifiedAccountKey,
    validate: { keyGeneratorIpFallback: false },
  });
  /** A further stkPush budget, counted like the two above; `code` and `reason` say which one ran out. */
  const budget = (name: 'phone' | 'account-day', options: { windowMs: number; limit: number; code: 'too_many_prompts_to_phone' | 'daily_payment_attempts_used'; reason: string; key: (req: Request, res: Response) => string; skip?: (req: Request) => boolean }): RequestHandler =>
    rateLimit({
      ...(deps.rateLimitStore && { store: deps.rateLimitStore(name) }),
      windowMs: options.windowMs,
      limit: options.limit,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      handler: (_req, _res, next) => next(initiateFailed(429, options.code, options.reason)),
      keyGenerator: options.key,
      ...(options.skip ? { skip: options.skip } : {}),
      validate: { keyGeneratorIpFallback: false },
    });
  // Per destination phone, whoever asks (guests and every account together): a stranger's phone is prompted at
  // most `perPhone` times per window however many accounts ask. A number refused as invalid later is not counted.
  const perPhone = budget('phone', {
    windowMs: deps.rateLimit.phoneWindowMs,
    limit: deps.rateLimit.perPhone,
    code: 'too_many_prompts_to_phone',
    reason: 'this phone has been sent too many M-Pesa prompts. Please wait a while and try again.',
    key: (req) => `phone:${destinationPhone(req) ?? ''}`,
    skip: (req) => destinationPhone(req) === undefined,
  });
  // Per account (a guest's phone) per day, beside the short window's per-account budget.
  const perUserDay = budget('account-day', {
    windowMs: DAY_MS,
    limit: deps.rateLimit.perUserDay,
    code: 'daily_payment_attempts_used',
    reason: 'you have started too many payments today. Please try again tomorrow.',
    key: verifiedAccountKey,
  });
  // The token is verified (by the API server) before the per-account limit counts it: keyed by the
  // unverified `sub`, a few forged tokens naming someone's public id would lock that buyer out.
  // No token at all is a guest purchase, counted per phone (its shadow account).
  const verifyBuyer: RequestHandler = async (req, res, next) => {
    const token = bearerToken(req);
    if (token) res.locals.userId = await checkout.verifyBuyer(token);
    else res.locals.guestPhone = normaliseKenyanPhone((req.body as { phone?: unknown } | undefined)?.phone) ?? 'invalid';
    next();
  };

  router.post('/stkPush', perIp, verifyBuyer, perUser, perUserDay, perPhone, async (req, res) => {
    const token = bearerToken(req);
    const input = parseStkPush(req.body);
    // A member's email and language are their account's; only a guest's are taken from the request.
    if (token) delete input.guestEmail;
    else input.language = languageFromAcceptLanguage(req.get('accept-language'));
    const { order, push } = await checkout.startCheckout(token, input, abandonedSignal(req, res));
    const simulatorUrl = deps.simulatorUrl?.(res, push);
    res.json({
      ResponseCode: '0',
      CheckoutRequestID: push.CheckoutRequestID,
      MerchantRequestID: push.MerchantRequestID,
      CustomerMessage: push.CustomerMessage || 'Success. Request accepted for processing',
      amount: order.amount,
      quantity: order.quantity,
      holdExpiresAt: order.holdExpiresAt,
      ...(simulatorUrl ? { simulatorUrl } : {}),
    });
  });

  router.post('/confirmPayment', async (req, res) => {
    // Without a token only a guest checkout is answered (the checkout service says 401 for a member's).
    res.json(await checkout.confirm(bearerToken(req), parseConfirm(req.body)));
  });

  return router;
}
