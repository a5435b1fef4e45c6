import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import express, { Router, type Request, type RequestHandler } from 'express';
import { z } from 'zod';
import { parseResult, type ParsedResult } from '../daraja/daraja-results.js';
import { PaymentServiceError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { PaymentMetrics } from '../metrics.js';
import { declareRoutes } from '../route-declaration.js';
import type { Settlement } from '../settlement.js';

/**
 * What a known metadata item must look like when present (Daraja sends numbers, some libraries strings):
 * a positive amount, a receipt of capitals and digits, a phone and a 14-digit date of digits. Anything else
 * is not a callback Daraja sent, and is refused before it can change anything.
 */
const metadataRules: Record<string, (value: string | number) => boolean> = {
  Amount: (value) => /^\d+(\.\d{1,2})?$/.test(String(value).trim()) && Number(value) > 0,
  MpesaReceiptNumber: (value) => /^[A-Z0-9]{6,20}$/.test(String(value)),
  PhoneNumber: (value) => /^\d{9,15}$/.test(String(value)),
  TransactionDate: (value) => /^\d{14}$/.test(String(value)),
};

const metadataItem = z
  .object({ Name: z.string().max(100), Value: z.union([z.string().max(100), z.number()]).optional() })
  .refine((item) => item.Value === undefined || !Object.hasOwn(metadataRules, item.Name) || metadataRules[item.Name]!(item.Value), {
    message: 'Callback metadata value is not valid.',
  });

const callbackSchema = z.object({
  Body: z.object({
    stkCallback: z.object({
      MerchantRequestID: z.coerce.string().max(100).optional(),
      CheckoutRequestID: z.string().min(1).max(100).regex(/^[A-Za-z0-9_.-]+$/),
      ResultCode: z.coerce.number().int(),
      ResultDesc: z.coerce.string().max(1000).default(''),
      CallbackMetadata: z.object({ Item: z.array(metadataItem).max(20) }).optional(),
    }),
  }),
});

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether a callback's `:secret` path segment is ours, compared in constant time (every Daraja callback route). */
export function secretPathCheck(secret: string): (given: unknown) => boolean {
  const expected = digest(secret);
  return (given) => timingSafeEqual(digest(String(given)), expected);
}

/**
 * Only the allowed sources may post M-Pesa callbacks (`CALLBACK_ALLOWED_IPS`): the request's address
 * (honouring TRUST_PROXY). Undefined allows any source.
 */
export function callbackSourceCheck(allowed: string[] | undefined, deps: { logger: Logger; metrics?: Pick<PaymentMetrics, 'stkCallbacks'> | undefined }): RequestHandler {
  if (!allowed) return (_req, _res, next) => next();
  const list = new BlockList();
  for (const entry of allowed) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return (req, _res, next) => {
    // An IPv4 peer on a dual-stack socket shows as ::ffff:a.b.c.d.
    const address = (req.ip ?? req.socket.remoteAddress ?? '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
    const family = isIP(address);
    if (family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4')) return next();
    deps.logger.info(`M-Pesa callback from ${address || 'an unknown address'} refused: not in CALLBACK_ALLOWED_IPS`);
    deps.metrics?.stkCallbacks.inc({ outcome: 'wrong-source' });
    next(refused(403, 'Forbidden'));
  };
}

/** Daraja reads only the status; the body says why in its own words (`{ResultCode: 1, ResultDesc}`). */
export const refused = (status: number, resultDesc: string) => new PaymentServiceError(status, 'callback_refused', resultDesc, {}, 'daraja');

/**
 * A Daraja result callback's first checks, the same for refunds and payouts: the secret path (404, as if there
 * were no such route) and a readable Result body (400), each counted; answers the parsed result.
 */
export function resultCallbackReader(deps: { secret: string; logger: Logger }) {
  const secretValid = secretPathCheck(deps.secret);
  return (req: Request, label: string, count: (outcome: string) => void): ParsedResult => {
    if (!secretValid(req.params.secret)) {
      deps.logger.info(`${label} callback with a wrong secret path refused`);
      count('wrong-secret');
      throw refused(404, 'Not found');
    }
    const result = parseResult(req.body);
    if (!result) {
      count('malformed');
      throw refused(400, 'Malformed result');
    }
    return result;
  };
}

/** For the document: Daraja's callbacks are answered in Daraja's words. */
export const darajaAccepted = z.object({ ResultCode: z.literal(0), ResultDesc: z.string(), outcome: z.string().optional() }).meta({ id: 'DarajaAccepted' });
const darajaRefused = z.object({ ResultCode: z.literal(1), ResultDesc: z.string() }).meta({ id: 'DarajaRefused' });
export const darajaAnswer = (description: string, schema: z.ZodType = darajaRefused) => ({ description, schema });

/** The answers every Daraja callback route can give besides its own. */
export const darajaRefusals = {
  403: darajaAnswer('The sender is not in CALLBACK_ALLOWED_IPS.'),
  404: darajaAnswer('Wrong secret path segment, or a request this service does not know.'),
  503: darajaAnswer('Cannot be settled now: the reconciler settles it later.'),
};

/**
 * POST /api/mpesa/callback/:secret — Daraja's result. The secret path segment keeps strangers
 * out; everything else about the message is checked against the push by the API server.
 * Daraja only needs a 200 `{ResultCode:0}` acknowledgement.
 */
export function createCallbackRouter(deps: { settlement: Settlement; secret: string; logger: Logger; metrics?: Pick<PaymentMetrics, 'stkCallbacks'> | undefined }) {
  const count = (outcome: string) => deps.metrics?.stkCallbacks.inc({ outcome });
  const router = Router();
  const secretValid = secretPathCheck(deps.secret);

  const routes = declareRoutes(router, 'M-Pesa callbacks');
  routes.post(
    '/:secret',
    {
      summary: "Daraja's result of an STK push",
      description: 'Passed to the API server, which checks it against the push and settles the payment. Duplicates are harmless.',
      access: 'daraja',
      use: [express.json({ limit: '32kb' })],
      documentedBody: callbackSchema,
      responses: {
        200: darajaAnswer('Accepted (`outcome` says what it settled).', darajaAccepted),
        400: darajaAnswer('Not a callback Daraja sent (malformed).'),
        ...darajaRefusals,
      },
    },
    async ({ req, res }) => {
      if (!secretValid(req.params.secret)) {
        deps.logger.info('callback with a wrong secret path refused');
        count('wrong-secret');
        throw refused(404, 'Not found');
      }
      const parsed = callbackSchema.safeParse(req.body);
      if (!parsed.success) {
        count('malformed');
        throw refused(400, 'Malformed callback');
      }
      const outcome = await deps.settlement.handleCallback(parsed.data as never).catch((error: unknown) => {
        // The reconciler will settle it from an STK query.
        deps.logger.error('callback could not be settled now', error);
        count('unavailable');
        throw refused(503, 'Temporarily unavailable');
      });
      count(outcome);
      if (outcome === 'unknown') throw refused(404, 'Unknown CheckoutRequestID');
      res.json({ ResultCode: 0, ResultDesc: 'Accepted', outcome });
    },
  );

  return router;
}
