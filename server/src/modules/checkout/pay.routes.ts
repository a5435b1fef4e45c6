import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { checkoutRequestIdSchema, confirmPaymentBody, guestEmailSchema, OBJECT_ID_PATTERN, orderItemsSchema, promoCodeSchema, stkPushBody } from '@tukio/shared/internal-api';
import { ADAPTER_KEY_HEADER, adapterKey } from '@tukio/shared/node/adapter-key';
import { languageFromAcceptLanguage } from '@tukio/shared/languages';
import { MAX_TICKETS_PER_ORDER } from '@tukio/shared/limits';
import { bearerToken } from '@tukio/shared/node/bearer-token';
import { normaliseKenyanPhone } from '@tukio/shared/phone';
import { redisRateLimitStore, type RedisCommands } from '@tukio/shared/node/redis';
import { SIMULATOR_PROMPT_PATH } from '@tukio/shared/daraja-protocol';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { z } from 'zod';
import type { StkRateLimit } from '../../config.js';
import { AppError } from '../../lib/app-error.js';
import { loginRequired, restrictionError } from '../../lib/auth.js';
import { declareRoutes } from '../../lib/route-declaration.js';
import { confirmFailed, type ConfirmPaymentHandler } from './confirm-payment.handler.js';
import { checkoutUnavailable, initiateFailed, type CheckoutRequest, type StartCheckoutHandler } from './start-checkout.handler.js';


const digest = (value: string) => createHash('sha256').update(value).digest();

const DAY_MS = 24 * 60 * 60 * 1000;


/** A zod failure's first message, lower-cased to follow "Failed to initiate payment: ". */
function firstIssue(error: z.ZodError): string {
  const message = error.issues[0]?.message ?? 'the request is not valid.';
  return message.charAt(0).toLowerCase() + message.slice(1);
}

/** The stkPush request as the checkout takes it; a 400 naming the field otherwise. */
function parseStkPush(body: unknown): CheckoutRequest & { email?: string | undefined; instalments?: boolean | undefined } {
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
  const dateId = parsed.data.dateId === undefined || parsed.data.dateId === '' ? undefined : parsed.data.dateId;
  if (dateId !== undefined && (typeof dateId !== 'string' || !OBJECT_ID_PATTERN.test(dateId))) throw initiateFailed(400, 'validation_failed', 'dateId is not valid.', { field: 'dateId', params: { field: 'dateId', kind: 'invalid' } });
  const email = parsed.data.email === undefined || parsed.data.email === '' ? undefined : guestEmailSchema.safeParse(parsed.data.email);
  if (email && !email.success) throw initiateFailed(400, 'validation_failed', firstIssue(email.error), { field: 'email', params: { field: 'email', kind: 'invalid_email' } });
  const instalments = parsed.data.instalments === true || parsed.data.instalments === 'true';
  // `amount` is ignored on purpose: the server prices the order (types, promo code and all).
  return { eventId, quantity, phone, ...(parsed.data.answers !== undefined ? { answers: parsed.data.answers } : {}), ...(instalments ? { instalments } : {}), ...(items ? { items: items.data } : {}), ...(promo ? { promoCode: promo.data } : {}), ...(dateId ? { dateId } : {}), ...(email ? { email: email.data } : {}) };
}

/**
 * Aborted once nobody waits for this request's answer any more (the buyer's browser or the adapter gave up):
 * a step that may run late checks it first, so nothing the buyer was told had failed happens afterwards.
 */
function abandonedSignal(req: Request, res: Response): AbortSignal {
  const controller = new AbortController();
  if (req.socket.destroyed || res.destroyed) controller.abort();
  else res.once('close', () => res.writableFinished || controller.abort());
  return controller.signal;
}

/**
 * /pay/stkPush and /pay/confirmPayment: the browser's checkout, same-origin (the payment service's section-7
 * /api/stkPush and /api/confirmPayment forward here). Four budgets guard the prompts, counted in Redis when
 * instances share one (fail closed: while Redis is down no prompt goes out uncounted).
 */
export function createPayRouter(deps: {
  startCheckout: StartCheckoutHandler;
  confirmPayment: ConfirmPaymentHandler;
  rateLimit: StkRateLimit;
  internalApiKey: string;
  redis?: { commands: RedisCommands; keyPrefix: string } | undefined;
  /** With the Daraja simulator: where its phone pages are for a buyer who came through the adapter (not this origin). */
  simulatorUrl?: string | undefined;
  /** The Paybill number buyers may pay to instead of the prompt, with the order code as the account (docs/decisions/paybill.md). */
  paybillShortcode?: string | undefined;
}) {
  const router = Router();
  router.use(express.json({ limit: '16kb' }));
  const expectedKey = digest(adapterKey(deps.internalApiKey));
  /** The buyer's address: the one the adapter vouches for, else this request's (TRUST_PROXY). */
  const viaAdapter = (req: Request) => {
    const given = req.get(ADAPTER_KEY_HEADER);
    return given !== undefined && timingSafeEqual(digest(given), expectedKey);
  };
  const clientAddress = (req: Request) => {
    if (viaAdapter(req)) {
      const forwarded = (req.get('x-forwarded-for') ?? '').split(',').pop()?.trim() ?? '';
      if (isIP(forwarded)) return forwarded;
    }
    return req.ip ?? req.socket.remoteAddress ?? '';
  };
  const { redis } = deps;
  const store = (budget: string) => (redis ? { store: redisRateLimitStore(redis.commands, `${redis.keyPrefix}rl:stk-push-${budget}:`, checkoutUnavailable) } : {});
  const accountKey = (req: Request) => (req.user ? `user:${req.user.id}` : `guest:${normaliseKenyanPhone((req.body as { phone?: unknown } | undefined)?.phone) ?? 'invalid'}`);
  const destinationPhone = (req: Request) => normaliseKenyanPhone((req.body as { phone?: unknown } | undefined)?.phone);
  const budget = (name: string, options: { windowMs: number; limit: number; code: 'too_many_payment_attempts' | 'too_many_prompts_to_phone' | 'daily_payment_attempts_used'; reason: string; key: (req: Request) => string; skip?: (req: Request) => boolean }): RequestHandler =>
    rateLimit({
      ...store(name),
      windowMs: options.windowMs,
      limit: options.limit,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      handler: (_req, _res, next) => next(initiateFailed(429, options.code, options.reason)),
      keyGenerator: options.key,
      ...(options.skip ? { skip: options.skip } : {}),
      validate: { keyGeneratorIpFallback: false },
    });
  const tooMany = { code: 'too_many_payment_attempts', reason: 'too many payment attempts. Please wait a few minutes and try again.' } as const;
  const limits = [
    budget('address', { windowMs: deps.rateLimit.windowMs, limit: deps.rateLimit.perIp, ...tooMany, key: (req) => ipKeyGenerator(clientAddress(req)) }),
    // A token that is not valid is refused before the per-account limit counts it: a forged token naming someone must not spend their budget.
    ((req, _res, next) => {
      if (!bearerToken(req) || req.user) return next();
      const refusal = loginRequired(req);
      next(initiateFailed(401, refusal.code, refusal.message, { body: refusal.details?.body }));
    }) as RequestHandler,
    budget('account', { windowMs: deps.rateLimit.windowMs, limit: deps.rateLimit.perUser, ...tooMany, key: accountKey }),
    budget('account-day', {
      windowMs: DAY_MS,
      limit: deps.rateLimit.perUserDay,
      code: 'daily_payment_attempts_used',
      reason: 'you have started too many payments today. Please try again tomorrow.',
      key: accountKey,
    }),
    // Per destination phone, whoever asks: a stranger's phone is prompted at most `perPhone` times per window however many accounts ask.
    budget('phone', {
      windowMs: deps.rateLimit.phoneWindowMs,
      limit: deps.rateLimit.perPhone,
      code: 'too_many_prompts_to_phone',
      reason: 'this phone has been sent too many M-Pesa prompts. Please wait a while and try again.',
      key: (req) => `phone:${destinationPhone(req) ?? ''}`,
      skip: (req) => destinationPhone(req) === undefined,
    }),
  ];

  /** The prompt's own phone page, when Daraja is the simulator: on the buyer's own origin, or the simulator's for an adapter client. */
  const simulatorLink = (req: Request, path: string | undefined) => {
    if (deps.simulatorUrl === undefined || path === undefined || !SIMULATOR_PROMPT_PATH.test(path)) return undefined;
    return `${viaAdapter(req) ? deps.simulatorUrl.replace(/\/+$/, '') : `${req.protocol}://${req.host}`}${path}`;
  };

  const routes = declareRoutes(router, 'Payments');
  routes.post(
    '/stkPush',
    {
      summary: 'Buy tickets by M-Pesa prompt (STK push), as a member or a guest',
      access: 'optional',
      description:
        'With a bearer token the member buys; without one the phone buys as a guest (its shadow account). The server prices the order (`amount` is ignored), holds the seats and sends the prompt; poll POST /pay/confirmPayment with the CheckoutRequestID.',
      use: limits,
      body: stkPushBody,
      responses: {
        200: 'Prompt sent: `{ResponseCode, CheckoutRequestID, MerchantRequestID, CustomerMessage, amount, quantity, holdExpiresAt, instalments?: {deposit, dueAt, cancellationFee, orderAmount}, simulatorUrl?, paybill?: {shortcode, account, amount, holdExpiresAt}}` (`paybill`: pay from the M-Pesa menu instead, with the order code as the account number; `instalments`: the deposit was asked for, docs/decisions/instalments.md).',
        400: 'Not a valid request (`field` names it), or M-Pesa refused the phone.',
        401: 'A token that is not valid.',
        404: 'Event not found.',
        409: 'Not enough seats left, or a prompt already pending on the phone.',
        429: 'A budget ran out, or not the buyer’s turn in a busy sale’s line.',
        502: 'M-Pesa refused or is unreachable; `payment_outcome_unknown` when the prompt may have been sent.',
        503: 'Try again in a moment.',
      },
    },
    async ({ req, res, user }) => {
      const { email, ...request } = parseStkPush(req.body);
      // A suspended or banned member may not buy (after the budgets, as every refusal of the purchase).
      const restricted = restrictionError(user);
      if (restricted) throw initiateFailed(restricted.status, restricted.code, restricted.message, { body: restricted.details?.body });
      // A reservation is looked after on /profile: paying in instalments needs an account.
      if (request.instalments && !user) throw initiateFailed(401, 'login_required', 'sign in to pay in instalments.', { field: 'instalments' });
      // A member's email and language are their account's; only a guest's are taken from the request.
      const buyer = user ? { userId: user.id } : { guest: { email, language: languageFromAcceptLanguage(req.get('accept-language')) } };
      const { order, push } = await deps.startCheckout.handle(buyer, request, abandonedSignal(req, res));
      const simulatorUrl = simulatorLink(req, push.simulatorPromptPath);
      return {
        ResponseCode: '0',
        CheckoutRequestID: push.checkoutRequestId,
        MerchantRequestID: push.merchantRequestId,
        CustomerMessage: push.customerMessage,
        amount: order.due,
        quantity: order.quantity,
        holdExpiresAt: order.holdExpiresAt,
        // Paying in parts (docs/decisions/instalments.md): `amount` is the deposit the prompt asks for; the rest is due by `dueAt`.
        ...(order.instalments ? { instalments: { ...order.instalments, orderAmount: order.amount } } : {}),
        ...(simulatorUrl ? { simulatorUrl } : {}),
        // Paying from the M-Pesa menu instead (docs/decisions/paybill.md): the order's code is the account number.
        ...(deps.paybillShortcode && order.orderCode ? { paybill: { shortcode: deps.paybillShortcode, account: order.orderCode, amount: order.due, holdExpiresAt: order.holdExpiresAt } } : {}),
      };
    },
  );

  routes.post(
    '/confirmPayment',
    {
      summary: 'Where a purchase by M-Pesa prompt stands (its buyer, or anyone holding a guest checkout’s CheckoutRequestID)',
      access: 'optional',
      body: confirmPaymentBody,
      responses: {
        200: '`{success, resultDesc, resultdDesc, resultCode?, status, orderStatus, CheckoutRequestID, eventId, amount, quantity, mpesaReceiptNumber, ticketToken?}`.',
        400: 'No CheckoutRequestID.',
        401: "A member's payment asked about without their token.",
        404: 'No payment to confirm.',
      },
    },
    async ({ body, user }) => {
      const checkoutRequestId = checkoutRequestIdSchema.safeParse(body.CheckoutRequestID ?? body.checkoutRequestId);
      if (!checkoutRequestId.success) throw confirmFailed(400, 'no_payment_to_confirm', 'No payment to confirm');
      return deps.confirmPayment.handle(user?.id, checkoutRequestId.data);
    },
  );

  // A failure of the confirm call that is not a refusal keeps confirm's shape (`success: false`).
  router.use('/confirmPayment', ((error, _req, _res, next) => {
    if (error instanceof AppError) return next(error);
    next(confirmFailed(503, 'payment_not_confirmed', 'An error occurred during payment confirmation'));
  }) as express.ErrorRequestHandler);

  return router;
}
