import { createMetricsRegistry } from '@tukio/shared/node/metrics';
import { Counter } from 'prom-client';

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
  return { ...metrics, settlements };
}

export type Metrics = ReturnType<typeof createMetrics>;
