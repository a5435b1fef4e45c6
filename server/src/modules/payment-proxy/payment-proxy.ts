import { createHmac } from 'node:crypto';
import http, { type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import { currentRequestId, REQUEST_ID_HEADER } from '@tukio/shared/node/request-context';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError } from '../../lib/app-error.js';
import type { Logger } from '../../lib/logger.js';

/**
 * The browser reaches the payment service through this server, same-origin, so the whole app is
 * one port and one CSP origin ('self') whatever PAYMENT_PORT is:
 *   /pay/*        → the payment service's /api/*             (stkPush, confirmPayment, health, the M-Pesa callback)
 *   /simulator/*  → the Daraja simulator's phone pages      (its own process, DARAJA_SIMULATOR_URL; same paths)
 * Bodies stream both ways; status and headers pass through. The payment service believes the
 * X-Forwarded-* headers added here only with PROXY_KEY_HEADER (payment-service/src/forwarded.ts).
 */

export const PROXY_KEY_HEADER = 'x-tukio-proxy-key';

/**
 * What proves a forwarded request came from this server. Derived from INTERNAL_API_KEY rather than
 * the key itself: should PAYMENT_URL point at a stranger (another process on that port), it
 * learns only how to vouch for forwarded addresses, never the key to /api/internal/payments.
 * payment-service/src/forwarded.ts derives the same value.
 */
export function paymentProxyKey(internalApiKey: string): string {
  return createHmac('sha256', internalApiKey).update('tukio payment proxy').digest('base64url');
}

/** Per-connection headers (RFC 9110 §7.6.1) and what only this hop may say about the request. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);
const SET_BY_PROXY = new Set(['host', 'forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-prefix', 'x-real-ip', 'x-internal-key', PROXY_KEY_HEADER, REQUEST_ID_HEADER]);

function copyHeaders(source: IncomingHttpHeaders, drop: Set<string>): OutgoingHttpHeaders {
  const named = new Set((String(source.connection ?? '')).split(',').map((name) => name.trim().toLowerCase()));
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || HOP_BY_HOP.has(name) || drop.has(name) || named.has(name)) continue;
    out[name] = value;
  }
  return out;
}

const UNREACHABLE = 'The payment service is not reachable right now. Please try again in a moment.';
const TOO_SLOW = 'The payment service did not answer in time. Please try again in a moment.';
/**
 * An stkPush the payment service received but never answered (it died, or hung): the prompt may be on the phone
 * already, so "try again" would be wrong. The client keeps looking for the payment instead.
 */
const OUTCOME_UNKNOWN = 'Your M-Pesa prompt may have been sent: watch your phone. If you pay, your tickets will follow.';
/** Its Daraja protocol (OAuth, STK push with any CallBackURL) is for the payment service itself, never the browser. */
const PRIVATE_PATHS = /^\/daraja(\/|$)/i;
/** Dot segments and encoded dots, slashes or backslashes: a path must mean the same here and there. */
const AMBIGUOUS_PATH = /(^|\/)\.{1,2}(\/|$)|%2e|%2f|%5c|\\/i;

export interface PaymentProxy {
  /** Mount at /pay. */
  pay: RequestHandler;
  /** Mount at /simulator. */
  simulator: RequestHandler;
}

/** `vouch: false`: the target is not the payment service, and is not given the key its forwarded headers are believed with. */
export function createPaymentProxy(deps: { targetUrl: string; internalApiKey: string; timeoutMs: number; logger: Logger; vouch?: boolean }): PaymentProxy {
  const target = new URL(deps.targetUrl);
  const secure = target.protocol === 'https:';
  const basePath = target.pathname.replace(/\/+$/, '');
  const agent = secure ? new https.Agent({ keepAlive: true, maxSockets: 64 }) : new http.Agent({ keepAlive: true, maxSockets: 64 });
  const key = paymentProxyKey(deps.internalApiKey);

  /**
   * `sendsPrompt`: the request may send an M-Pesa prompt (stkPush). Once it reached the payment service, a lost
   * or late answer is `payment_outcome_unknown` (502/504), never "not reachable, try again".
   */
  function forward(upstreamPrefix: string, req: Request, res: Response, next: NextFunction, sendsPrompt = false) {
    if (AMBIGUOUS_PATH.test(req.path)) return next(AppError.notFound('not_found', 'Not found.'));
    const headers = copyHeaders(req.headers, SET_BY_PROXY);
    // req.ip and req.protocol follow TRUST_PROXY: the buyer's address, never a header the buyer wrote.
    headers['x-forwarded-for'] = req.ip ?? req.socket.remoteAddress ?? '';
    headers['x-forwarded-host'] = req.host;
    headers['x-forwarded-proto'] = req.protocol;
    headers['x-forwarded-prefix'] = req.baseUrl;
    if (deps.vouch !== false) headers[PROXY_KEY_HEADER] = key;
    // This request's id (already checked), so the payment service's log lines for it read the same.
    const requestId = currentRequestId();
    if (requestId) headers[REQUEST_ID_HEADER] = requestId;

    let answered = false;
    const fail = (error: AppError) => {
      if (answered) return;
      answered = true;
      if (res.headersSent) res.destroy();
      else next(error);
    };
    const upstream = (secure ? https : http).request({
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      method: req.method,
      path: `${basePath}${upstreamPrefix}${req.url}`,
      headers,
      agent,
    });
    // Whether the request reached the payment service: a connection to it was open (a new one connected, or a kept-alive one).
    let reached = false;
    upstream.on('socket', (socket) => {
      if (!socket.connecting) reached = true;
      else socket.once('connect', () => (reached = true));
    });
    const outcomeUnknown = (status: 502 | 504) => (sendsPrompt && reached ? new AppError(status, 'payment_outcome_unknown', OUTCOME_UNKNOWN) : undefined);
    // Until the answer starts: covers a stalled connect as well as a slow payment service.
    const timer = setTimeout(() => {
      fail(outcomeUnknown(504) ?? new AppError(504, 'payment_service_timeout', TOO_SLOW));
      upstream.destroy();
    }, deps.timeoutMs);
    // Once the answer streams, a connection idle this long is dead.
    upstream.setTimeout(deps.timeoutMs, () => upstream.destroy(new Error('idle')));
    upstream.on('response', (answer) => {
      clearTimeout(timer);
      if (answered) return void answer.resume();
      answered = true;
      res.status(answer.statusCode ?? 502);
      for (const [name, value] of Object.entries(copyHeaders(answer.headers, new Set()))) if (value !== undefined) res.setHeader(name, value);
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    });
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const unknown = outcomeUnknown(502);
      if (!answered) deps.logger.error(`${unknown ? 'payment service lost an stkPush it had received' : 'payment service unreachable'} at ${target.origin} (${error.code ?? error.message})`);
      fail(unknown ?? new AppError(503, 'payment_service_unreachable', UNREACHABLE));
    });
    // The buyer went away: stop the forwarded request too.
    res.on('close', () => {
      clearTimeout(timer);
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  }

  return {
    pay: (req, res, next) => forward('/api', req, res, next, req.method === 'POST' && /^\/stkPush\/?$/i.test(req.path)),
    simulator: (req, res, next) => {
      if (PRIVATE_PATHS.test(req.path)) return next(AppError.notFound('not_found', 'Not found.'));
      forward('/simulator', req, res, next);
    },
  };
}
