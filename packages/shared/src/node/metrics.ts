import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { bearerToken } from './bearer-token.js';
import { routePattern } from './request-context.js';

/**
 * Prometheus metrics both services expose under the same names (docs/decisions/operations.md): HTTP
 * requests by route pattern, and Node's own process metrics (event-loop delay, heap, GC, handles).
 * Each service adds its own counters and gauges to `registers`.
 */

/**
 * Node's own metrics describe the process, not an app: one registry per process, whichever app instances
 * it runs (tests start several), merged into each scrape.
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

type GaugeReading = number | Array<{ labels: Record<string, string>; value: number }>;

export const DEFAULT_HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** An app's registry (one per app instance) with the HTTP request counter and histogram. */
export function createMetricsRegistry(options: { httpBuckets?: number[] } = {}) {
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
    buckets: options.httpBuckets ?? DEFAULT_HTTP_BUCKETS,
    registers,
  });

  return {
    registry,
    /** For the service's own metrics: `new Counter({ …, registers })`. */
    registers,
    /** Counts and times every request once its response is done (mounted first, so every route is seen). */
    httpMiddleware(): RequestHandler {
      return (req, res, next) => {
        const stop = httpDuration.startTimer();
        res.once('finish', () => {
          // The route pattern (`/api/events/:id`), never the raw path, so series stay bounded and tokens in paths never show.
          const route = routePattern(req) ?? '(unmatched)';
          httpRequests.inc({ method: req.method, route, status: String(res.statusCode) });
          stop({ method: req.method, route });
        });
        next();
      };
    },
    /**
     * A gauge read when Prometheus scrapes: `read` gives one value, or one per label set. A failed read
     * (the database is down) keeps the last value, so the rest of the scrape still answers.
     */
    gauge(name: string, help: string, read: () => GaugeReading | Promise<GaugeReading>, labelNames: string[] = []) {
      new Gauge({
        name,
        help,
        labelNames,
        registers,
        async collect() {
          let value: GaugeReading;
          try {
            value = await read();
          } catch {
            return;
          }
          if (typeof value === 'number') this.set(value);
          else for (const entry of value) this.set(entry.labels, entry.value);
        },
      });
    },
    /** The text exposition of the app's and the process's metrics. */
    async render(): Promise<{ contentType: string; body: string }> {
      const merged = Registry.merge([processMetrics(), registry]);
      return { contentType: merged.contentType, body: await merged.metrics() };
    },
  };
}

export type MetricsRegistry = ReturnType<typeof createMetricsRegistry>;

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Who may read GET /metrics: `disabled` when no METRICS_TOKEN is configured (answer 404, so the endpoint is
 * not advertised), `denied` without `Authorization: Bearer <token>` (401), else `allowed`.
 */
export function metricsAccess(token: string | undefined): (req: Request) => 'disabled' | 'denied' | 'allowed' {
  const expected = token ? digest(token) : undefined;
  return (req) => {
    if (!expected) return 'disabled';
    const given = bearerToken(req);
    // Both sides hashed, so the comparison takes the same time whatever the guess's length.
    return given && timingSafeEqual(digest(given), expected) ? 'allowed' : 'denied';
  };
}
