import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { routePattern } from './request-context.js';

/** Node's own metrics (event-loop delay, heap, GC) describe the process: one registry per process, merged into each scrape. */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * The payment service's Prometheus metrics (same names as the API server's: docs/decisions/operations.md),
 * and the requests in flight a shutdown lets finish. Routes are labelled by their Express pattern, so
 * the callback's secret segment and CheckoutRequestIDs never become label values.
 */
export function createPaymentMetrics() {
  const registry = new Registry();
  const registers = [registry];
  const httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, Express route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request to the end of the response, by method and Express route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const stkPushes = new Counter({
    name: 'stk_pushes_total',
    help: 'STK pushes by outcome: sent (the prompt is on the phone), refused (Daraja said no), failed (Daraja unreachable or broken).',
    labelNames: ['outcome'] as const,
    registers,
  });
  const stkCallbacks = new Counter({
    name: 'stk_callbacks_total',
    help: 'M-Pesa callbacks by outcome (settled, duplicate, unknown, verified-by-query, left-pending, wrong-secret, malformed, unavailable).',
    labelNames: ['outcome'] as const,
    registers,
  });

  const active = new Set<ServerResponse>();
  let draining = false;
  let idleWaiters: Array<() => void> = [];
  new Gauge({ name: 'http_requests_in_flight', help: 'Requests Express is answering right now.', registers, collect() {
    this.set(active.size);
  } });

  return {
    stkPushes,
    stkCallbacks,
    /** Counts, times and tracks every request (mounted first); once draining, responses say Connection: close. */
    middleware: ((req, res, next) => {
      const stop = httpDuration.startTimer();
      active.add(res);
      if (draining) res.setHeader('Connection', 'close');
      res.once('finish', () => {
        const route = routePattern(req) ?? '(unmatched)';
        httpRequests.inc({ method: req.method, route, status: String(res.statusCode) });
        stop({ method: req.method, route });
      });
      res.once('close', () => {
        active.delete(res);
        if (active.size > 0) return;
        const waiters = idleWaiters;
        idleWaiters = [];
        for (const resolve of waiters) resolve();
      });
      next();
    }) as RequestHandler,
    /** Stops keep-alive on responses not yet sent; true once no request is in flight, false after `timeoutMs`. */
    drain(timeoutMs: number): Promise<boolean> {
      draining = true;
      for (const res of active) if (!res.headersSent) res.setHeader('Connection', 'close');
      if (active.size === 0) return Promise.resolve(true);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), timeoutMs);
        idleWaiters.push(() => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    },
    get draining() {
      return draining;
    },
    async render(): Promise<{ contentType: string; body: string }> {
      const merged = Registry.merge([processMetrics(), registry]);
      return { contentType: merged.contentType, body: await merged.metrics() };
    },
  };
}

export type PaymentMetrics = ReturnType<typeof createPaymentMetrics>;
