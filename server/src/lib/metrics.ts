import { createMetricsRegistry } from '@tukio/shared/node/metrics';
import { Counter, Histogram } from 'prom-client';

/**
 * The app's Prometheus registry (one per app instance): the HTTP and process metrics both services expose
 * (@tukio/shared), and the API server's own. Gauges that mirror state elsewhere (open sockets, queue depths,
 * refunds due) are read at scrape time through `gauge`.
 */
export function createMetrics() {
  const metrics = createMetricsRegistry();
  const settlements = new Counter({
    name: 'payment_settlements_total',
    help: 'M-Pesa results recorded by the API server (duplicates not counted), by the payment status they set.',
    labelNames: ['status'] as const,
    registers: metrics.registers,
  });
  const pushSeconds = new Histogram({
    name: 'payment_push_seconds',
    help: 'Whole STK pushes as the payment service timed them: from asking for the order to recording the push (M-Pesa answering included).',
    buckets: [0.1, 0.25, 0.5, 1, 1.5, 2.5, 5, 10, 15, 30],
    registers: metrics.registers,
  });
  return { ...metrics, settlements, pushSeconds };
}

export type Metrics = ReturnType<typeof createMetrics>;
