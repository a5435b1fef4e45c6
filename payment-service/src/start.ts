import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listen, outlastClientKeepAlive } from '@tukio/shared/node/listen';
import { createApiServerClient, type ApiServerClient } from './api-server-client.js';
import { createPaymentApp } from './app.js';
import { PAYBILL_CALLBACK_PATH, type PaymentConfig } from './config.js';
import { createDarajaClient, type DarajaClient } from './daraja/daraja-client.js';
import { createLogger } from './logger.js';
import { createAgents } from '@tukio/shared/node/http-request';
import { createReconciler } from './reconciler.js';
import type { PassRunner } from './routes/passes.routes.js';
import type { PayoutOutbox } from './payouts/payout-outbox.js';
import type { RefundOutbox } from './refunds/refunds.js';
import { callbackUrls } from './callback-urls.js';
import type { ResultOutbox } from './result-outbox.js';
import { paybillSecret } from './routes/paybill.routes.js';
import type { C2bConfirmationRequest } from '@tukio/shared/internal-c2b';

/** How long a shutdown lets requests in flight finish before cutting their connections. */
const DRAIN_TIMEOUT_MS = 5000;

export interface RunningPaymentService {
  url: string;
  port: number;
  /** The address it listens on (PAYMENT_HOST): 127.0.0.1 unless configured otherwise. */
  address: string;
  callbackUrl: string;
  reconciler: ReturnType<typeof createReconciler>;
  /** Organiser payout and refund results not yet acknowledged by the API server. */
  payoutOutbox: PayoutOutbox;
  refundOutbox: RefundOutbox;
  /** The Paybill callbacks registered with Daraja, and whether the registration succeeded (it does not hold up the start). */
  paybill: { urls: { validationUrl: string; confirmationUrl: string }; registered: Promise<boolean>; register(): Promise<boolean>; outbox: ResultOutbox<C2bConfirmationRequest> };
  close(): Promise<void>;
}

/** Listens (port 0 = random), starts the reconciler and the result outboxes. */
export async function startPaymentService(
  config: PaymentConfig,
  overrides: { api?: ApiServerClient; daraja?: DarajaClient; host?: string } = {},
): Promise<RunningPaymentService> {
  const logger = createLogger(config.logLevel);
  const httpServer = createServer();
  outlastClientKeepAlive(httpServer);
  // Longer than common client/proxy idle timeouts, so a reused connection is not closed under a request.
  httpServer.keepAliveTimeout = 65_000;
  const host = overrides.host ?? config.host;
  await listen(httpServer, { port: config.port, host });
  const { port, address } = httpServer.address() as AddressInfo;
  const selfUrl = `http://${reachableHost(host)}:${port}`;
  const callbackUrl = `${config.callbackBaseUrl ?? `${selfUrl}/api/mpesa/callback`}/${config.callbackSecret}`;

  const agents = createAgents(32);
  const daraja =
    overrides.daraja ??
    createDarajaClient({
      ...config.daraja,
      agents,
    });
  const api = overrides.api ?? createApiServerClient({ baseUrl: config.apiUrl, internalApiKey: config.internalApiKey, agents });
  const settlementAgents = createAgents(16);
  const settlementApi = overrides.api ?? createApiServerClient({ baseUrl: config.apiUrl, internalApiKey: config.internalApiKey, agents: settlementAgents });
  // The results of refunds and payouts come to the STK callback's siblings, behind the same secret (callback-urls.ts).
  const urls = callbackUrls(config.callbackBaseUrl ?? `${selfUrl}/api/mpesa/callback`, config.callbackSecret);

  // Made below, once the reconciler exists; a job asking before then fails and is retried.
  let runPass: PassRunner = () => Promise.reject(new Error('the payment service is still starting'));
  const passes: PassRunner = (pass) => runPass(pass);
  const { app, settlement, metrics, providerJournal, payoutOutbox, refundOutbox, paybillOutbox, pull } = createPaymentApp({
    config,
    logger,
    api,
    settlementApi,
    daraja,
    callbackUrl: () => callbackUrl,
    payoutUrls: () => urls.payouts,
    refundUrls: () => urls.refunds,
    passes,
  });
  httpServer.on('request', app);
  // Results left by a previous run go out now, new ones as they come.
  payoutOutbox.start();
  refundOutbox.start();
  paybillOutbox.start();
  // Paybill (docs/decisions/paybill.md): where M-Pesa asks before, and tells after, a payment from its menu.
  const paybillBase = `${config.c2b.callbackBaseUrl ?? `${selfUrl}${PAYBILL_CALLBACK_PATH}`}/${paybillSecret(config.callbackSecret)}`;
  const paybillUrls = { validationUrl: `${paybillBase}/validation`, confirmationUrl: `${paybillBase}/confirmation` };
  const registerPaybill = () =>
    daraja.registerC2bUrls
      ? daraja.registerC2bUrls({ ...paybillUrls, responseType: config.c2b.responseType }).then(
          () => {
            logger.info(`Paybill callbacks registered with Daraja for ${config.daraja.shortcode} (${config.c2b.responseType} when validation is late)`);
            return true;
          },
          (error: unknown) => {
            // Production registers once ("already registered" afterwards); payments from the menu still confirm to those URLs.
            logger.error(`Paybill callbacks could not be registered with Daraja (${error instanceof Error ? error.message : String(error)}); payments from the M-Pesa menu reach Tukio only if they were registered before`);
            return false;
          },
        )
      : Promise.resolve(false);
  const paybillRegistered = config.c2b.register ? registerPaybill() : Promise.resolve(false);
  // Reconciliation's Pull Transactions: registered once now; a failure is retried by the first query.
  void pull?.register().catch((error: unknown) => logger.error(`Pull Transactions could not be registered with Daraja (${error instanceof Error ? error.message : String(error)}); the next reconciliation tries again`));
  const passesFromJobs = config.passes === 'jobs';
  if (!daraja.refundsEnabled && config.env === 'production') {
    logger.info('WARNING: refunds and payouts are not configured (DARAJA_INITIATOR_NAME, DARAJA_SECURITY_CREDENTIAL, DARAJA_B2C_SHORTCODE): the API server’s refunds wait until they are.');
  }

  if (config.simulator.enabled && config.env === 'production') {
    logger.info('WARNING: no Daraja credentials — payments go to the Daraja simulator and are not real money. Set DARAJA_* to sell real tickets.');
  }
  const reconciler = createReconciler({ api: settlementApi, settlement, logger, intervalMs: config.reconcile.intervalMs, afterSeconds: config.reconcile.afterSeconds });
  reconciler.start(passesFromJobs ? 'journal' : 'passes');
  runPass = () => reconciler.runOnce();
  logger.info(
    `payment service on http://localhost:${port} (Daraja: ${config.daraja.baseUrl}${config.simulator.enabled ? ', the simulator' : ''}; API server ${config.apiUrl})`,
  );

  let closing: Promise<void> | undefined;
  return {
    url: selfUrl,
    port,
    address,
    callbackUrl,
    reconciler,
    payoutOutbox,
    refundOutbox,
    paybill: { urls: paybillUrls, registered: paybillRegistered, register: registerPaybill, outbox: paybillOutbox },
    close() {
      closing ??= (async () => {
        // Drain: stop accepting connections (idle keep-alive ones close now) and let the requests in
        // flight finish, their calls to Daraja and the API server included (so the agents stay open
        // until then); their responses say Connection: close. A push already on a phone is journaled.
        const stopped = new Promise<void>((resolve) => httpServer.close(() => resolve()));
        const reconcilerStopped = Promise.all([reconciler.stop(), payoutOutbox.stop(), refundOutbox.stop(), paybillOutbox.stop()]);
        if (!(await metrics.drain(DRAIN_TIMEOUT_MS))) logger.error('shutdown: requests still in flight were cut off');
        httpServer.closeAllConnections();
        await stopped;
        await reconcilerStopped;
        agents.destroy();
        settlementAgents.destroy();
        settlement.journal.close();
        providerJournal.close();
        payoutOutbox.close();
        refundOutbox.close();
        paybillOutbox.close();
      })();
      return closing;
    },
  };
}

/** Where this process reaches itself when it listens on `host`: loopback for every interface. */
function reachableHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
