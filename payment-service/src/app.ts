import path from 'node:path';
import cors from 'cors';
import express, { type ErrorRequestHandler, type Express } from 'express';
import helmet from 'helmet';
import type { ApiServerClient } from './api-server-client.js';
import type { PaymentConfig } from './config.js';
import type { DarajaClient } from './daraja/daraja-client.js';
import type { DarajaSimulator } from './daraja/simulator/simulator.js';
import type { Logger } from './logger.js';
import { createPaymentMetrics, type PaymentMetrics } from './metrics.js';
import { forwardedBy, trustApiServerProxy } from './forwarded.js';
import { createCallbackRouter } from './routes/callback.routes.js';
import { createOpsRouter } from './routes/ops.routes.js';
import { createPushJournal } from './push-journal.js';
import { createPaymentsRouter, errorBody } from './routes/payments.routes.js';
import { createSettlement, type Settlement } from './settlement.js';

export interface PaymentAppDeps {
  config: PaymentConfig;
  logger: Logger;
  api: ApiServerClient;
  /** Settlement traffic (callbacks, reconciler) on its own connections, so results never queue behind buyers' polls. Default: `api`. */
  settlementApi?: ApiServerClient | undefined;
  daraja: DarajaClient;
  /** Mounted at /simulator/daraja (protocol) and /simulator (phone page) when given and config.simulator.enabled. */
  simulator?: DarajaSimulator | undefined;
  /** The full callback URL, secret segment included, sent with every push. */
  callbackUrl: () => string;
}

/** The payment service's Express app; `startPaymentService` (start.ts) listens and wires the simulator. */
export function createPaymentApp(deps: PaymentAppDeps): { app: Express; settlement: Settlement; metrics: PaymentMetrics } {
  const { config, logger } = deps;
  // Never next to real Daraja credentials (config.ts refuses that too): its pages would answer real buyers' prompts.
  const simulator = config.simulator.enabled ? deps.simulator : undefined;
  const journal = createPushJournal(path.join(config.dataDir, 'unrecorded-pushes'));
  const settlement = createSettlement({ api: deps.settlementApi ?? deps.api, daraja: deps.daraja, logger, journal });
  const metrics = createPaymentMetrics();
  const app = express();
  app.disable('x-powered-by');
  if (config.trustProxy) app.set('trust proxy', 1);
  // First, so every request is counted and timed, and a shutdown waits for it.
  app.use(metrics.middleware);
  app.use(helmet({ crossOriginResourcePolicy: { policy: 'cross-origin' } }));
  // Probes and metrics for the platform: /healthz, /readyz, /metrics (METRICS_TOKEN).
  app.use(createOpsRouter({ metrics, metricsToken: config.metricsToken, apiUrl: config.apiUrl }));
  // Browsers reach this service through the API server's /pay and /simulator: who they are and where they came from.
  app.use(trustApiServerProxy(config.internalApiKey));

  // Daraja posts here from its own servers: no CORS, its own small JSON parser, a secret path.
  app.use('/api/mpesa/callback', createCallbackRouter({ settlement, secret: config.callbackSecret, logger, metrics }));

  app.use(
    '/api',
    cors({
      origin: (origin, callback) => callback(null, !origin || config.corsOrigins.includes(origin)),
      credentials: true,
    }),
  );
  app.use('/api', express.json({ limit: '16kb' }));
  app.get('/api/health', (_req, res) => {
    res.json({ status: 'ok', simulator: Boolean(simulator) });
  });
  app.use(
    '/api',
    createPaymentsRouter({
      api: deps.api,
      daraja: deps.daraja,
      settlement,
      logger,
      metrics,
      callbackUrl: deps.callbackUrl,
      confirmQueryAfterSeconds: config.confirmQueryAfterSeconds,
      rateLimit: config.stkRateLimit,
      simulatorUrl: simulator
        ? (req, res, checkoutRequestId) => {
            const promptPath = simulator.promptPath(checkoutRequestId);
            // Through the API server the phone pages are at the same paths on the buyer's own origin.
            const origin = forwardedBy(res)?.origin ?? config.paymentPublicUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
            return promptPath && `${origin}${promptPath}`;
          }
        : undefined,
    }),
  );
  app.use('/api', (_req, res) => {
    res.status(404).json(errorBody('This API route does not exist.'));
  });

  if (simulator) {
    app.use('/simulator/daraja', simulator.api);
    app.use('/simulator', simulator.phone);
  }

  const errorHandler: ErrorRequestHandler = (error: unknown, req, res, _next) => {
    if (res.headersSent) return;
    const type = (error as { type?: unknown } | null)?.type;
    if (type === 'entity.parse.failed') return void res.status(400).json(errorBody('The request body is not valid JSON.'));
    if (type === 'entity.too.large') return void res.status(413).json(errorBody('The request body is too large.'));
    // Other client errors from the body parser (an unsupported charset or encoding, an aborted upload) keep their 4xx.
    const status = (error as { status?: unknown } | null)?.status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return void res.status(status).json(errorBody(status === 415 ? 'Unsupported content type: send JSON in UTF-8.' : 'The request could not be processed.'));
    }
    logger.error(`unexpected error on ${req.method} ${req.path}`, error);
    res.status(500).json(errorBody('An error occurred during payment. Please try again.'));
  };
  app.use(errorHandler);
  return { app, settlement, metrics };
}
