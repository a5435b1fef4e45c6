import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from './logger.js';

/**
 * Every request gets an id: the caller's `X-Request-Id` when it is a safe token (the payment service
 * and the API server pass theirs to each other, so one purchase reads the same in both logs), else a
 * fresh UUID. It is echoed in the response header, written on every log line of the request (also
 * from services deep below the route, through AsyncLocalStorage) and added to every 5xx JSON body,
 * so a user's report of a failure finds its log lines. docs/decisions/logging.md.
 */

export const REQUEST_ID_HEADER = 'x-request-id';
/** Letters, digits and dashes only: it lands in log lines and headers as it came. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9-]{8,64}$/;

const context = new AsyncLocalStorage<{ requestId: string }>();

/** The id of the request this code runs for, if any (undefined at start-up and in timers of no request). */
export function currentRequestId(): string | undefined {
  return context.getStore()?.requestId;
}

/** Runs `work` as part of the request `requestId` (what it logs and the calls it makes carry that id). */
export function runWithRequestId<T>(requestId: string, work: () => T): T {
  return context.run({ requestId }, work);
}

function requestIdFor(req: Request): string {
  const given = req.get(REQUEST_ID_HEADER);
  return given !== undefined && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * The Express route pattern a request matched (`/api/events/:id`), or undefined when none did. Logs and
 * metrics name requests by it: bounded, and tokens in paths (`/api/auth/verify-email/:token`) never show.
 */
export function routePattern(req: Request): string | undefined {
  const route = req.route as { path?: unknown } | undefined;
  if (!route) return undefined;
  if (req.baseUrl || typeof route.path !== 'string' || /[*{(]/.test(route.path)) return joinRoute(route, req.baseUrl);
  // Answered by the app's error handler: Express has put baseUrl back by then. The pattern matched the
  // path's last segments; the ones before them are where its router is mounted.
  const segments = requestPath(req).split('/');
  const matched = route.path === '/' ? 0 : route.path.split('/').length - 1;
  return joinRoute(route, segments.slice(0, segments.length - matched).join('/'));
}

const requestPath = (req: Request) => ((req.originalUrl || req.url).split('?')[0] ?? '').replace(/(.)\/+$/, '$1');

/** `/api/events` + `/:id`; a router's own `/` is the mount path itself. */
function joinRoute(route: { path?: unknown }, baseUrl: string): string {
  if (typeof route.path !== 'string') return `${baseUrl}${String(route.path)}`;
  return `${baseUrl}${route.path === '/' && baseUrl ? '' : route.path}`;
}

/**
 * What a log line names a request by: its route pattern, else the path without its query string.
 * Daraja's callback paths end in the callback secret (also when they come through /pay): that segment is masked.
 */
export function loggedRoute(req: Request): string {
  // Capabilities carried in a path: the callback secret (STK callback, refund results and timeouts) and a simulated prompt's link.
  return (
    routePattern(req) ??
    requestPath(req)
      .replace(/(\/mpesa\/(?:callback|(?:b2c|reversal|status)\/(?:result|timeout))\/)[^/]+/i, '$1:secret')
      .replace(/(\/simulator\/prompt\/)[^/]+/i, '$1:token')
  );
}

/** Probes the platform polls every few seconds: answered, counted in /metrics, not logged. */
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics', '/api/health']);

/** 5xx JSON bodies name the request (a new field; a body that already has one, forwarded from the payment service, keeps it). */
function withRequestIdOn5xx(res: Response, requestId: string) {
  const json = res.json.bind(res);
  res.json = (body?: unknown) => {
    const addId = res.statusCode >= 500 && body !== null && typeof body === 'object' && !Array.isArray(body) && !('requestId' in body);
    return json(addId ? { ...body, requestId } : body);
  };
}

/**
 * First middleware of the app: the request id, one log line per answered request (method, route,
 * status, time; 5xx at error level) and the context later log lines read their id from.
 */
export function requestContext(logger: Logger): RequestHandler {
  const log = pinoHttp<Request, Response>({
    logger: logger.requestPino,
    genReqId: (req, res) => {
      const id = requestIdFor(req);
      res.setHeader(REQUEST_ID_HEADER, id);
      return id;
    },
    customAttributeKeys: { reqId: 'requestId' },
    // Lines carry only the request id and what the messages below say: never headers, bodies or queries.
    quietReqLogger: true,
    quietResLogger: true,
    wrapSerializers: false,
    serializers: { req: (req: Request) => ({ method: req.method }) },
    autoLogging: { ignore: (req) => QUIET_PATHS.has(req.path) },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessObject: (req, res, value: { responseTime: number }) => ({ method: req.method, route: loggedRoute(req), status: res.statusCode, responseTime: value.responseTime }),
    customErrorObject: (req, res, _error, value: { responseTime: number }) => ({ method: req.method, route: loggedRoute(req), status: res.statusCode, responseTime: value.responseTime }),
    customSuccessMessage: (req, res) => `${req.method} ${loggedRoute(req)} ${res.writableEnded ? res.statusCode : 'aborted'}`,
    customErrorMessage: (req, res) => `${req.method} ${loggedRoute(req)} ${res.statusCode}`,
  });
  return (req, res, next) => {
    log(req, res, () => {
      const requestId = String(req.id);
      // A probe's answer names no log line (probes are not logged): its body stays as the platform expects it.
      if (!QUIET_PATHS.has(req.path)) withRequestIdOn5xx(res, requestId);
      context.run({ requestId }, next);
    });
  };
}
