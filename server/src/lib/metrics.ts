import type { RequestHandler } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { routePattern } from './request-context.js';

/**
 * Node's own metrics (event-loop delay, heap, GC, handles) describe the process, not an app: one
 * registry per process, whichever app instances it runs (tests start several), merged into each scrape.
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

/**
 * The app's Prometheus registry (one per app instance). Counters live here; gauges that mirror
 * state elsewhere (open sockets, queue depths, refunds due) are read at scrape time through `gauge`.
 */
export function createMetrics() {
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
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const settlements = new Counter({
    name: 'payment_settlements_total',
    help: 'M-Pesa results recorded by the API server (duplicates not counted), by the payment status they set.',
    labelNames: ['status'] as const,
    registers,
  });

  return {
    registry,
    settlements,
    /** Counts and times every request once its response is done (mounted first, so every route is seen). */
    httpMiddleware(): RequestHandler {
      return (req, res, next) => {
        const stop = httpDuration.startTimer();
        res.once('finish', () => {
          // The route pattern (`/api/events/:id`), never the raw path, so series stay bounded.
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

export type Metrics = ReturnType<typeof createMetrics>;
