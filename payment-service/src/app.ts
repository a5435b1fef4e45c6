import path from 'node:path';
import { requestContext } from '@tukio/shared/node/request-context';
import cors from 'cors';
import express, { type Express } from 'express';
import helmet from 'helmet';
import { z } from 'zod';
import { refusedForGood, type ApiServerClient } from './api-server-client.js';
import { createPushService } from './checkout/push.service.js';
import { PAYBILL_CALLBACK_PATH, type PaymentConfig } from './config.js';
import type { DarajaClient } from './daraja/daraja-client.js';
import { createErrorHandler, notFoundHandler } from './errors.js';
import type { Logger } from './logger.js';
import { createPaymentMetrics, type PaymentMetrics } from './metrics.js';
import { callbackSourceCheck, createCallbackRouter } from './routes/callback.routes.js';
import { createOpsRouter } from './routes/ops.routes.js';
import { createPassesRouter, type PassRunner } from './routes/passes.routes.js';
import { createProviderJournal, type ProviderJournal } from './provider-journal.js';
import { declareRoutes } from './route-declaration.js';
import { createDocsRouter } from './routes/docs.routes.js';
import { createPushJournal } from './push-journal.js';
import { createRefunds, type RefundOutbox, type RefundUrls } from './refunds/refunds.js';
import { createRefundCallbackRouter, createRefundRouter } from './routes/refund.routes.js';
import { refundResultRequest } from '@tukio/shared/internal-refunds';
import { createResultOutbox, type ResultOutbox } from './result-outbox.js';
import { createSendOnce } from './daraja/send-once.js';
import { createPaymentsRouter } from './routes/payments.routes.js';
import { createPullTransactions, type PullTransactions } from './pull-transactions.js';
import { createInternalRouter } from './routes/internal.routes.js';
import { createSettlement, type Settlement } from './settlement.js';
import { createPayoutOutbox, type PayoutOutbox } from './payouts/payout-outbox.js';
import { createPaybillCallbackRouter, paybillConfirmations, paybillSecret } from './routes/paybill.routes.js';
import { c2bConfirmationRequest, type C2bConfirmationRequest } from '@tukio/shared/internal-c2b';
import { createPayouts, type PayoutUrls } from './payouts/payouts.js';
import { createPayoutCallbackRouter, createPayoutRouter } from './routes/payout.routes.js';

export interface PaymentAppDeps {
  config: PaymentConfig;
  logger: Logger;
  api: ApiServerClient;
  /** Settlement traffic (callbacks, reconciler) on its own connections, so results never queue behind buyers' polls. Default: `api`. */
  settlementApi?: ApiServerClient | undefined;
  daraja: DarajaClient;
  /** The full callback URL, secret segment included, sent with every push. */
  callbackUrl: () => string;
  /** Where Daraja posts the results of organiser payouts and refunds, and of status queries about them (callback-urls.ts). */
  payoutUrls: () => PayoutUrls;
  refundUrls: () => RefundUrls;
  /** Runs the reconciler's passes when the API server's jobs ask (start.ts makes it after the app). */
  passes?: PassRunner | undefined;
}

/** The payment service's Express app; `startPaymentService` (start.ts) listens. */
export function createPaymentApp(deps: PaymentAppDeps): {
  app: Express;
  settlement: Settlement;
  metrics: PaymentMetrics;
  /** Daraja's journal of what it said (start.ts closes it). */
  providerJournal: ProviderJournal;
  /** The organiser payouts' and the refunds' results on their way to the API server: start.ts starts delivering them. */
  payoutOutbox: PayoutOutbox;
  refundOutbox: RefundOutbox;
  paybillOutbox: ResultOutbox<C2bConfirmationRequest>;
  /** Daraja's Pull Transactions (reconciliation), when configured: start.ts registers the shortcode at start. */
  pull: PullTransactions | undefined;
} {
  const { config, logger } = deps;
  const journal = createPushJournal(path.join(config.dataDir, 'unrecorded-pushes'));
  const providerJournal = createProviderJournal(path.join(config.dataDir, 'mpesa-journal'));
  const settlement = createSettlement({ api: deps.settlementApi ?? deps.api, daraja: deps.daraja, logger, journal, providerJournal });
  const metrics = createPaymentMetrics();
  // Pull Transactions' CallBackURL has no documented use: the STK callback URL is a valid secure one of ours.
  const pull = config.pull ? createPullTransactions({ daraja: deps.daraja, shortCode: config.daraja.shortcode, nominatedNumber: config.pull.nominatedNumber, callbackUrl: deps.callbackUrl, logger }) : undefined;
  const resultsApi = deps.settlementApi ?? deps.api;
  const payoutOutbox = createPayoutOutbox({
    dir: path.join(config.dataDir, 'payout-outbox'),
    deliver: (result) => resultsApi.payoutResult(result),
    logger,
    retryMs: config.payouts.resultRetryMs,
    onDelivered: () => metrics.payoutDeliveries.inc(),
    // A 4xx the API server would answer again (409 for a success of another amount…) is parked, not retried forever.
    refusedForGood,
    onParked: () => metrics.payoutParked.inc(),
  });
  metrics.watchParkedPayoutResults(() => payoutOutbox.parked().length);
  // The refunds' results the same way, in their own directory, to POST /api/internal/refunds/result.
  const refundOutbox: RefundOutbox = createResultOutbox({
    what: 'refund',
    dir: path.join(config.dataDir, 'refund-outbox'),
    schema: refundResultRequest,
    deliver: (result) => resultsApi.refundResult(result),
    logger,
    retryMs: config.payouts.resultRetryMs,
    onDelivered: (result) => {
      metrics.refundDeliveries.inc();
      // The API server has this attempt's result: a later callback about it is a duplicate, not delivered again.
      refunds.delivered(result);
    },
    refusedForGood,
    onParked: () => metrics.refundParked.inc(),
  });
  metrics.watchParkedRefundResults(() => refundOutbox.parked().length);
  // Payouts and refunds: each attempt goes to Daraja at most once (daraja/send-once.ts).
  const sendOnce = createSendOnce({ journal: providerJournal, logger, enabled: () => deps.daraja.refundsEnabled });
  const payouts = createPayouts({ daraja: deps.daraja, journal: providerJournal, outbox: payoutOutbox, sendOnce, urls: deps.payoutUrls, logger, metrics });
  const refunds = createRefunds({ daraja: deps.daraja, journal: providerJournal, outbox: refundOutbox, sendOnce, urls: deps.refundUrls, logger, metrics });
  // Paybill confirmations on their way to the API server's settle path (docs/decisions/paybill.md): the same durable outbox.
  const paybillOutbox = createResultOutbox({
    what: 'paybill',
    identity: paybillConfirmations,
    schema: c2bConfirmationRequest,
    dir: path.join(config.dataDir, 'paybill-outbox'),
    deliver: (confirmation) => (deps.settlementApi ?? deps.api).c2bConfirm(confirmation),
    logger,
    retryMs: config.payouts.resultRetryMs,
    refusedForGood,
  });
  const app = express();
  app.disable('x-powered-by');
  if (config.trustProxy) app.set('trust proxy', 1);
  // First, so every request is counted and timed, and a shutdown waits for it.
  app.use(metrics.middleware);
  // Request id (header, log lines, 5xx bodies, calls to the API server) and one log line per answered request.
  app.use(requestContext(logger));
  app.use(helmet({ crossOriginResourcePolicy: { policy: 'cross-origin' } }));
  // Probes and metrics for the platform: /healthz, /readyz, /metrics (METRICS_TOKEN).
  app.use(createOpsRouter({ metrics, metricsToken: config.metricsToken, apiUrl: config.apiUrl }));
  const { passes } = deps;
  if (passes) app.use(createPassesRouter({ internalApiKey: config.internalApiKey, run: passes, logger }));
  // What the API server's checkout asks of M-Pesa: a prompt for an order it holds, and where a push stands.
  app.use(createInternalRouter({ internalApiKey: config.internalApiKey, pushes: createPushService({ daraja: deps.daraja, settlement, logger, metrics, callbackUrl: deps.callbackUrl, simulator: config.simulator.enabled }), pull }));
  // Organiser payouts the API server decides on: one Daraja request per attempt, and status queries.
  app.use(createPayoutRouter({ internalApiKey: config.internalApiKey, payouts }));
  // Refunds the API server's refunds job sends: one Daraja request per attempt, and status queries.
  app.use(createRefundRouter({ internalApiKey: config.internalApiKey, refunds }));

  // Daraja posts here from its own servers: no CORS, its own small JSON parser, a secret path, and
  // (CALLBACK_ALLOWED_IPS) only from Safaricom's addresses.
  app.use('/api/mpesa', callbackSourceCheck(config.callbackAllowedIps, { logger, metrics }));
  app.use('/api/mpesa/callback', createCallbackRouter({ settlement, secret: config.callbackSecret, logger, metrics }));
  // The refunds' results and queue timeouts, the same way: /api/mpesa/{b2c,reversal,status}/{result,timeout}/<secret>.
  app.use('/api/mpesa', createRefundCallbackRouter({ refunds, secret: config.callbackSecret, logger, metrics }));
  // Paybill payments' validation and confirmation (C2B): /hooks/paybill/<paybill secret>/{validation,confirmation}.
  app.use(PAYBILL_CALLBACK_PATH, callbackSourceCheck(config.callbackAllowedIps, { logger, metrics }));
  app.use(
    PAYBILL_CALLBACK_PATH,
    createPaybillCallbackRouter({ api: deps.api, outbox: paybillOutbox, shortcode: config.daraja.shortcode, secret: paybillSecret(config.callbackSecret), logger, journal: providerJournal }),
  );
  // The organiser payouts' results: /api/mpesa/payout/{result,timeout,status-result,status-timeout}/<secret>.
  app.use('/api/mpesa', createPayoutCallbackRouter({ payouts, secret: config.callbackSecret, logger, metrics }));

  app.use(
    '/api',
    cors({
      origin: (origin, callback) => callback(null, !origin || config.corsOrigins.includes(origin)),
      credentials: true,
    }),
  );
  app.use('/api', express.json({ limit: '16kb' }));
  declareRoutes(app, 'Health').get(
    '/api/health',
    {
      summary: 'Liveness: the service answers (and whether it talks to the Daraja simulator)',
      access: 'public',
      responses: { 200: { description: 'Up.', schema: z.object({ status: z.literal('ok'), simulator: z.boolean() }) } },
    },
    () => ({ status: 'ok', simulator: config.simulator.enabled }),
  );
  // This service's OpenAPI document, from its route declarations: /api/docs/openapi.json.
  app.use('/api/docs', createDocsRouter({ app }));
  // The original contract's /api/stkPush and /api/confirmPayment: forwarded to the API server's checkout.
  app.use('/api', createPaymentsRouter({ apiUrl: config.apiUrl, internalApiKey: config.internalApiKey, timeoutMs: deps.api.timeoutMs, logger }));
  app.use('/api', notFoundHandler);

  app.use(createErrorHandler(logger));
  return { app, settlement, metrics, providerJournal, payoutOutbox, refundOutbox, paybillOutbox, pull };
}
