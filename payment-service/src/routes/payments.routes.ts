import { createHash } from 'node:crypto';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { z } from 'zod';
import { ApiServerError, type ApiServerClient, type PaymentStatus } from '../api-server-client.js';
import { DarajaError, type DarajaClient } from '../daraja/daraja-client.js';
import { clientAddress } from '../forwarded.js';
import type { Logger } from '../logger.js';
import type { PaymentMetrics } from '../metrics.js';
import type { Settlement } from '../settlement.js';

const INITIATE_FAILED = 'Failed to initiate payment';
/** Same words as the API server's status for a pending payment. */
const PENDING_MESSAGE = 'Payment is still pending. Complete the M-Pesa prompt on your phone, then confirm again.';

/** The confirmPayment answer for a status from the API server. */
function confirmAnswer(status: PaymentStatus) {
  return {
    success: status.success,
    resultDesc: status.resultDesc,
    resultdDesc: status.resultDesc,
    status: status.status,
    orderStatus: status.orderStatus,
    CheckoutRequestID: status.checkoutRequestId,
    eventId: status.eventId,
    amount: status.amount,
    quantity: status.quantity,
    mpesaReceiptNumber: status.mpesaReceiptNumber,
  };
}

const tokenHash = (token: string) => createHash('sha256').update(token).digest('base64url');

/** Every failure body carries both spellings, as on the API server. */
export const errorBody = (message: string, extra: Record<string, unknown> = {}) => ({ msg: message, message, ...extra });

function fail(res: Response, status: number, reason: string, extra: Record<string, unknown> = {}) {
  res.status(status).json(errorBody(`${INITIATE_FAILED}: ${reason}`, extra));
}

export function bearerToken(req: Request): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '');
  const token = match?.[1];
  return token && token !== 'null' && token !== 'undefined' ? token : undefined;
}

/** The account the API server verified for this request (`verifyBuyer` puts it in res.locals). */
const verifiedAccountKey = (_req: Request, res: Response) => `user:${String(res.locals.userId)}`;

/** Accepts 2547XXXXXXXX, 07XXXXXXXX, +2547…, and spaces or dashes; answers 254 + the last 9 digits. */
export function normalisePhone(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const digits = String(value).replace(/[\s\-()+]/g, '');
  if (!/^\d+$/.test(digits)) return undefined;
  let phone: string | undefined;
  if (/^254\d{9}$/.test(digits)) phone = digits;
  else if (/^0\d{9}$/.test(digits)) phone = `254${digits.slice(1)}`;
  else if (/^\d{9}$/.test(digits)) phone = `254${digits}`;
  return phone && /^254[17]\d{8}$/.test(phone) ? phone : undefined;
}

const stkPushBody = z.object({
  phone: z.union([z.string(), z.number()]).optional(),
  amount: z.unknown().optional(),
  Order_ID: z.string().max(100).optional(),
  quantity: z.union([z.string(), z.number()]).optional(),
});

const confirmBody = z.object({
  CheckoutRequestID: z.string().max(100).optional(),
  checkoutRequestId: z.string().max(100).optional(),
});

/** Why Daraja refused a push, in words a buyer can act on. */
function explainDarajaError(error: DarajaError): { status: number; reason: string } {
  if (error.subscriberLocked) {
    return { status: 409, reason: 'a prompt is already pending on this phone (M-Pesa 1001). Complete or cancel it on the phone, wait a moment, then try again.' };
  }
  if (error.network || error.httpStatus >= 500) {
    return { status: 502, reason: 'M-Pesa is not reachable right now. Please try again in a minute.' };
  }
  if (/PhoneNumber/i.test(error.errorMessage)) return { status: 400, reason: 'M-Pesa does not accept this phone number. Use a Safaricom number, 254 followed by 9 digits.' };
  return { status: 502, reason: `M-Pesa refused the request (${error.errorMessage}).` };
}

export function createPaymentsRouter(deps: {
  api: ApiServerClient;
  daraja: DarajaClient;
  settlement: Settlement;
  logger: Logger;
  /** stk_pushes_total{outcome}. */
  metrics?: Pick<PaymentMetrics, 'stkPushes'> | undefined;
  callbackUrl: () => string;
  confirmQueryAfterSeconds: number;
  rateLimit: { windowMs: number; perIp: number; perUser: number };
  /** With the Daraja simulator: the link to the prompt's own simulated phone page, for its buyer only. */
  simulatorUrl?: ((req: Request, res: Response, checkoutRequestId: string) => string | undefined) | undefined;
}) {
  const { api, daraja, settlement, logger } = deps;
  const router = Router();
  const tooMany = `${INITIATE_FAILED}: too many payment attempts. Please wait a few minutes and try again.`;
  const perIp: RequestHandler = rateLimit({
    windowMs: deps.rateLimit.windowMs,
    limit: deps.rateLimit.perIp,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    message: errorBody(tooMany),
    // The buyer's address, also through the API server's /pay (else one shared address for everyone).
    keyGenerator: (req, res) => ipKeyGenerator(clientAddress(req, res)),
  });
  const perUser: RequestHandler = rateLimit({
    windowMs: deps.rateLimit.windowMs,
    limit: deps.rateLimit.perUser,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    message: errorBody(tooMany),
    keyGenerator: verifiedAccountKey,
    validate: { keyGeneratorIpFallback: false },
  });
  // The token is verified (by the API server) before the per-account limit counts it: keyed by the
  // unverified `sub`, a few forged tokens naming someone's public id would lock that buyer out.
  const verifyBuyer: RequestHandler = async (req, res, next) => {
    const token = bearerToken(req);
    if (!token) return fail(res, 401, 'please log in to buy tickets.');
    try {
      res.locals.userId = (await api.whoami(token)).userId;
    } catch (error) {
      if (error instanceof ApiServerError && error.status < 500) return fail(res, error.status, error.message);
      logger.error('token check failed', error);
      return fail(res, 503, 'Tukio is temporarily unavailable. Please try again in a moment.');
    }
    next();
  };

  router.post('/stkPush', perIp, verifyBuyer, perUser, async (req, res) => {
    const token = bearerToken(req);
    if (!token) return fail(res, 401, 'please log in to buy tickets.');
    const parsed = stkPushBody.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'the request is not valid.');
    const phone = normalisePhone(parsed.data.phone);
    if (!phone) return fail(res, 400, 'enter a Safaricom phone number as 254 followed by 9 digits, e.g. 254712345678.', { field: 'phone' });
    const eventId = (parsed.data.Order_ID ?? '').split('_')[0] ?? '';
    if (!/^[0-9a-f]{24}$/.test(eventId)) return fail(res, 400, 'Order_ID must be "<eventId>_<phone>".', { field: 'Order_ID' });
    const quantity = parsed.data.quantity === undefined || parsed.data.quantity === '' ? 1 : Number(parsed.data.quantity);
    if (!Number.isInteger(quantity) || quantity < 1 || quantity > 10) return fail(res, 400, 'choose between 1 and 10 tickets.', { field: 'quantity' });
    // parsed.data.amount is ignored on purpose: the API server prices the order.

    let order;
    try {
      order = await api.createOrder(token, { eventId, quantity, phone });
    } catch (error) {
      if (error instanceof ApiServerError && error.status < 500) {
        return fail(res, error.status, error.message, typeof error.body.field === 'string' ? { field: error.body.field } : {});
      }
      logger.error('create order failed', error);
      return fail(res, 503, 'Tukio is temporarily unavailable. Please try again in a moment.');
    }

    let push;
    try {
      push = await daraja.stkPush({
        amount: order.amount,
        phone,
        accountReference: order.accountReference,
        transactionDesc: order.transactionDesc,
        callbackUrl: deps.callbackUrl(),
      });
    } catch (error) {
      await api.abandonOrder(order.orderId, error instanceof Error ? error.message : 'push failed').catch((abandonError: unknown) => {
        logger.error(`could not release order ${order.orderId}`, abandonError);
      });
      deps.metrics?.stkPushes.inc({ outcome: error instanceof DarajaError && !error.network && error.httpStatus < 500 ? 'refused' : 'failed' });
      if (error instanceof DarajaError) {
        const { status, reason } = explainDarajaError(error);
        logger.info(`STK push refused: ${error.message}`);
        return fail(res, status, reason, { errorCode: error.errorCode });
      }
      logger.error('STK push failed', error);
      return fail(res, 502, 'M-Pesa is not reachable right now. Please try again in a minute.');
    }

    deps.metrics?.stkPushes.inc({ outcome: 'sent' });
    // The prompt is on the phone now and the customer may pay whatever happens next. Journal the
    // push on disk first (push-journal.ts), so that it is recorded even if the API server is down
    // or this process is killed before recording it: a payment for a push the API server never
    // saw would be refused as unknown, and the customer would pay for no ticket.
    const entry = { orderId: order.orderId, checkoutRequestId: push.CheckoutRequestID, merchantRequestId: push.MerchantRequestID, sentAt: Date.now() };
    let journaled = true;
    try {
      settlement.journal.add(entry);
    } catch (error) {
      journaled = false;
      logger.error(`push ${push.CheckoutRequestID} could not be journaled`, error);
    }
    // Record the push before answering; a callback arriving meanwhile waits for this.
    const record = (async () => {
      for (let attempt = 0; ; attempt += 1) {
        try {
          await settlement.recordPush(entry, api);
          return;
        } catch (error) {
          if (attempt >= 4 || (error instanceof ApiServerError && error.status < 500)) throw error;
          await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** attempt));
        }
      }
    })();
    settlement.recording.set(push.CheckoutRequestID, record);
    try {
      await record;
    } catch (error) {
      if (!journaled || !settlement.unrecorded(push.CheckoutRequestID)) {
        logger.error(`push ${push.CheckoutRequestID} was sent but could not be recorded`, error);
        return fail(res, 503, 'the prompt was sent but Tukio could not record it. Do not pay; try again in a moment.');
      }
      // Kept in the journal: the reconciler records it once the API server answers, then settles
      // it. The buyer follows it as any other push (polls are answered "pending" meanwhile).
      logger.error(`push ${push.CheckoutRequestID} was sent but is not recorded yet; the reconciler will record it`, error);
    } finally {
      settlement.recording.delete(push.CheckoutRequestID);
    }
    settlement.open.add(push.CheckoutRequestID, { tokenHash: tokenHash(token), eventId, amount: order.amount, quantity: order.quantity });
    const simulatorUrl = deps.simulatorUrl?.(req, res, push.CheckoutRequestID);

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
    const token = bearerToken(req);
    if (!token) return void res.status(401).json(errorBody('Please log in to confirm the payment.', { success: false }));
    const parsed = confirmBody.safeParse(req.body ?? {});
    const checkoutRequestId = parsed.success ? (parsed.data.CheckoutRequestID ?? parsed.data.checkoutRequestId ?? '').trim() : '';
    if (!checkoutRequestId || !/^[A-Za-z0-9_.-]+$/.test(checkoutRequestId)) {
      return void res.status(400).json(errorBody('No payment to confirm', { success: false }));
    }
    // A push this instance sent, still unanswered, asked about with the token that made it:
    // "pending" needs no round trip to the API server (polls are most of the traffic).
    // The same goes for its final result once the API server recorded it (settle returns the view).
    const open = settlement.open.get(checkoutRequestId);
    if (open && open.tokenHash === tokenHash(token)) {
      if (open.state === 'final' && open.final) return void res.json(confirmAnswer(open.final));
      // Not recorded yet (the API server was down): nothing to ask it about, and it is still pending.
      if (open.state === 'open' && (Date.now() - open.createdAt < deps.confirmQueryAfterSeconds * 1000 || settlement.unrecorded(checkoutRequestId))) {
        return void res.json({
          success: false,
          resultDesc: PENDING_MESSAGE,
          resultdDesc: PENDING_MESSAGE,
          status: 'pending',
          orderStatus: 'pending',
          CheckoutRequestID: checkoutRequestId,
          eventId: open.eventId,
          amount: open.amount,
          quantity: open.quantity,
          mpesaReceiptNumber: null,
        });
      }
    }
    try {
      // Journaled by an earlier run of this service and not recorded yet: record it first, or the
      // API server would answer 404 and the client would stop following a payment that is coming.
      if (!open && settlement.unrecorded(checkoutRequestId)) await settlement.recordIfJournaled(checkoutRequestId);
      let status = await api.paymentStatus(token, checkoutRequestId);
      // The callback may be late or lost: once the buyer asks after a while, ask Daraja directly.
      if (status.status === 'pending' && status.ageSeconds >= deps.confirmQueryAfterSeconds) {
        try {
          if (await settlement.reconcileOne(checkoutRequestId)) status = await api.paymentStatus(token, checkoutRequestId);
        } catch (error) {
          logger.error(`STK query for ${checkoutRequestId} failed`, error);
        }
      }
      if (open && status.status !== 'pending') settlement.open.remember(status);
      res.json(confirmAnswer(status));
    } catch (error) {
      if (error instanceof ApiServerError && error.status < 500) {
        const message = error.status === 404 ? 'No payment to confirm' : error.message;
        return void res.status(error.status).json(errorBody(message, { success: false }));
      }
      logger.error('confirm payment failed', error);
      res.status(503).json(errorBody('An error occurred during payment confirmation', { success: false }));
    }
  });

  return router;
}
