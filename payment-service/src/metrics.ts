import { createInFlightTracker } from '@tukio/shared/node/in-flight';
import { createMetricsRegistry, DEFAULT_HTTP_BUCKETS } from '@tukio/shared/node/metrics';
import { Counter } from 'prom-client';

/**
 * The payment service's Prometheus metrics (the HTTP and process ones as the API server's, @tukio/shared:
 * docs/decisions/operations.md), and the requests in flight a shutdown lets finish. Routes are labelled by
 * their Express pattern, so the callback's secret segment and CheckoutRequestIDs never become label values.
 */
export function createPaymentMetrics() {
  // A push waits on Daraja: its slowest answers need the 30 s bucket.
  const metrics = createMetricsRegistry({ httpBuckets: [...DEFAULT_HTTP_BUCKETS, 30] });
  const { registers } = metrics;
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
  const refunds = new Counter({
    name: 'refunds_total',
    help: 'Refund requests and results by method (reversal, b2c) and outcome: sent (Daraja accepted it), rejected (Daraja refused it: nothing paid), unknown (no usable answer; the API server asks its status), not-sent, repeat (answered from the journal), status-query (Transaction Status asked), succeeded, failed (a result queued for the API server).',
    labelNames: ['method', 'outcome'] as const,
    registers,
  });
  const refundCallbacks = new Counter({
    name: 'refund_callbacks_total',
    help: 'Daraja results and queue timeouts for refunds, by route (b2c-result, reversal-timeout, status-result, …) and outcome (queued, duplicate, pending, unknown, timeout, wrong-secret, malformed).',
    labelNames: ['route', 'outcome'] as const,
    registers,
  });
  const payouts = new Counter({
    name: 'payouts_total',
    help: 'Organiser payout requests and results by method (mpesa, paybill, till; b2c, b2b for results) and outcome: sent (Daraja accepted it), rejected (refused: nothing paid), unknown (no usable answer), not-sent, repeat (answered from the journal), status-query, paid, failed (a result queued for the API server).',
    labelNames: ['method', 'outcome'] as const,
    registers,
  });
  const payoutCallbacks = new Counter({
    name: 'payout_callbacks_total',
    help: 'Daraja results and queue timeouts for organiser payouts, by route (result, timeout, status-result, status-timeout) and outcome (queued, duplicate, pending, unknown, timeout, wrong-secret, malformed).',
    labelNames: ['route', 'outcome'] as const,
    registers,
  });
  const payoutDeliveries = new Counter({
    name: 'payout_results_delivered_total',
    help: 'Organiser payout results the API server acknowledged.',
    registers,
  });
  const payoutParked = new Counter({
    name: 'payout_results_parked_total',
    help: 'Organiser payout results the API server refused for good (a 4xx it would answer again): parked in payout-outbox/parked.log, not delivered again. Any is for a person to look at.',
    registers,
  });
  const refundDeliveries = new Counter({
    name: 'refund_results_delivered_total',
    help: 'Refund results the API server acknowledged.',
    registers,
  });
  const refundParked = new Counter({
    name: 'refund_results_parked_total',
    help: 'Refund results the API server refused for good (a 4xx it would answer again, such as a success of another amount): parked in refund-outbox/parked.log, not delivered again. Any is for a person to look at.',
    registers,
  });
  const inFlight = createInFlightTracker();
  metrics.gauge('http_requests_in_flight', 'Requests Express is answering right now.', () => inFlight.active);

  return {
    stkPushes,
    stkCallbacks,
    refunds,
    refundCallbacks,
    payouts,
    payoutCallbacks,
    payoutDeliveries,
    payoutParked,
    refundDeliveries,
    refundParked,
    /** `payout_results_parked`: the results parked now (read from the outbox when scraped; survives restarts). */
    watchParkedPayoutResults: (count: () => number) => metrics.gauge('payout_results_parked', 'Organiser payout results parked now (payout-outbox/parked.log): each needs a person.', count),
    /** `refund_results_parked`: the same for refunds (refund-outbox/parked.log). */
    watchParkedRefundResults: (count: () => number) => metrics.gauge('refund_results_parked', 'Refund results parked now (refund-outbox/parked.log): each needs a person.', count),
    /** Tracks, counts and times every request (mounted first); once draining, responses say Connection: close. */
    middleware: [inFlight.middleware, metrics.httpMiddleware()],
    /** Stops keep-alive on responses not yet sent; true once no request is in flight, false after `timeoutMs`. */
    drain: (timeoutMs: number) => inFlight.drain(timeoutMs),
    get draining() {
      return inFlight.draining;
    },
    render: () => metrics.render(),
  };
}

export type PaymentMetrics = ReturnType<typeof createPaymentMetrics>;
