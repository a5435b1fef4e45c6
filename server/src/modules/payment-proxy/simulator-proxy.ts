import http, { type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import { currentRequestId, REQUEST_ID_HEADER } from '@tukio/shared/node/request-context';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError } from '../../lib/app-error.js';
import type { Logger } from '../../lib/logger.js';

/**
 * The Daraja simulator's phone pages (its own process, DARAJA_SIMULATOR_URL), served same-origin at
 * /simulator/* so the whole app is one port and one CSP origin ('self'). Bodies stream both ways;
 * status and headers pass through.
 */

/** Per-connection headers (RFC 9110 §7.6.1) and what only this hop may say about the request. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);
const SET_BY_PROXY = new Set(['host', 'forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-prefix', 'x-real-ip', 'x-internal-key', 'x-tukio-proxy-key', REQUEST_ID_HEADER]);

function copyHeaders(source: IncomingHttpHeaders, drop: Set<string>): OutgoingHttpHeaders {
  const named = new Set((String(source.connection ?? '')).split(',').map((name) => name.trim().toLowerCase()));
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || HOP_BY_HOP.has(name) || drop.has(name) || named.has(name)) continue;
    out[name] = value;
  }
  return out;
}

const UNREACHABLE = 'The simulator is not reachable right now. Please try again in a moment.';
const TOO_SLOW = 'The simulator did not answer in time. Please try again in a moment.';
/** Its Daraja protocol (OAuth, STK push with any CallBackURL) is for the payment service itself, never the browser. */
const PRIVATE_PATHS = /^\/daraja(\/|$)/i;
/** Dot segments and encoded dots, slashes or backslashes: a path must mean the same here and there. */
const AMBIGUOUS_PATH = /(^|\/)\.{1,2}(\/|$)|%2e|%2f|%5c|\\/i;

/** Mount at /simulator. */
export function createSimulatorProxy(deps: { targetUrl: string; timeoutMs: number; logger: Logger }): RequestHandler {
  const target = new URL(deps.targetUrl);
  const secure = target.protocol === 'https:';
  const basePath = target.pathname.replace(/\/+$/, '');
  const agent = secure ? new https.Agent({ keepAlive: true, maxSockets: 64 }) : new http.Agent({ keepAlive: true, maxSockets: 64 });

  return (req: Request, res: Response, next: NextFunction) => {
    if (PRIVATE_PATHS.test(req.path) || AMBIGUOUS_PATH.test(req.path)) return next(AppError.notFound('not_found', 'Not found.'));
    const headers = copyHeaders(req.headers, SET_BY_PROXY);
    // req.ip and req.protocol follow TRUST_PROXY: the visitor's address, never a header the visitor wrote.
    headers['x-forwarded-for'] = req.ip ?? req.socket.remoteAddress ?? '';
    headers['x-forwarded-host'] = req.host;
    headers['x-forwarded-proto'] = req.protocol;
    headers['x-forwarded-prefix'] = req.baseUrl;
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
      path: `${basePath}/simulator${req.url}`,
      headers,
      agent,
    });
    // Until the answer starts: covers a stalled connect as well as a slow simulator.
    const timer = setTimeout(() => {
      fail(new AppError(504, 'payment_service_timeout', TOO_SLOW));
      upstream.destroy();
    }, deps.timeoutMs);
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
      if (!answered) deps.logger.error(`simulator unreachable at ${target.origin} (${error.code ?? error.message})`);
      fail(new AppError(503, 'payment_service_unreachable', UNREACHABLE));
    });
    res.on('close', () => {
      clearTimeout(timer);
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  };
}
