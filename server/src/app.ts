import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInFlightTracker } from '@tukio/shared/node/in-flight';
import { requestContext } from '@tukio/shared/node/request-context';
import compression from 'compression';
import cors from 'cors';
import express, { type Express, type RequestHandler } from 'express';
import expressStaticGzip from 'express-static-gzip';
import helmet from 'helmet';
import { z } from 'zod';
import type { AppConfig } from './config.js';
import type { Database } from './db/database.js';
import { authenticateRequests } from './lib/auth.js';
import type { JobQueue } from './lib/job-queue.js';
import { createMetrics } from './lib/metrics.js';
import { createChangeFeed } from './lib/change-feed.js';
import { createErrorHandler, notFoundHandler } from './lib/error-handler.js';
import type { Logger } from './lib/logger.js';
import type { Mailer } from './lib/mailer.js';
import { createAppShellHandler, createAppShellSource } from './lib/app-shell.js';
import { createWidgetScriptHandler, isFrameablePath, WIDGET_SCRIPT_PATH } from './lib/embed-page.js';
import { limitPerIp, localBudgets, sharedBudgets } from './lib/rate-limit.js';
import { declareRoutes } from './lib/route-declaration.js';
import { createRequestGate } from './lib/request-gate.js';
import type { RedisConnection } from './lib/redis.js';
import { createSharedTokenBuckets, createTokenBuckets } from './lib/token-bucket.js';
import './lib/validate.js';
import { chatProfiles, createAuthRouter, createAuthService, passwordMatches } from './modules/auth/index.js';
import { createChatRouter, createChatService, createSendMessage } from './modules/chat/index.js';
import {
  createCommentsRouter,
  createCommentsService,
  createContentModeration,
  createSpamBrakes,
  createForumsRouter,
  createForumsService,
  createReviewsRouter,
  createReviewsService,
} from './modules/community/index.js';
import { createContactService } from './modules/contact/index.js';
import { createEventDashboardRouter, createEventDashboardService } from './modules/dashboard/index.js';
import {
  createAccountDeletionLinksRouter,
  createAccountDeletionRequestRouter,
  createAccountDeletionService,
  createAdminAccountDeletionRouter,
  createDataExportRouter,
  createDataExportService,
  DATA_EXPORT_INTERVAL_MS,
  DATA_EXPORT_LINK_MS,
} from './modules/data-rights/index.js';
import { createAdminRetentionRouter, createPrivacyRouter, createRetentionService, privacySettingsOf } from './modules/retention/index.js';
import { retentionMap } from './retention-map.js';
import { createDocsRouter } from './modules/docs/index.js';
import { createModerationRouter, createModerationService } from './modules/moderation/index.js';
import { createAdminEventsRouter, createEventPageHandler, createEventsRouter, createEventsService, eventListPageData, type EventHoldings } from './modules/events/index.js';
import { createGeocodingRouter, createGeocodingService } from './modules/geocoding/index.js';
import { createAdminFeesRouter, createFeesService } from './modules/fees/index.js';
import { createAdminLedgerRouter, createEventLedgerRouter, createLedgerService } from './modules/ledger/index.js';
import { createMailOutbox } from './modules/mail/index.js';
import { createOpsRouter, createOpsService } from './modules/ops/index.js';
import { createPayoutAccountsRouter, createPayoutAccountsService } from './modules/payout-accounts/index.js';
import { createApiKeysRouter, createApiKeysService, createApiV1Router } from './modules/api-keys/index.js';
import { createWebhooks, createWebhooksRouter } from './modules/webhooks/index.js';
import { createAdminPayoutsRouter, createInternalPayoutsRouter, createPayoutGateway, createPayouts, createPayoutsRouter, type PayoutDestinations } from './modules/payouts/index.js';
import { createSimulatorProxy } from './modules/payment-proxy/index.js';
import {
  createEventReminders,
  createPaymentPasses,
  createGuestCheckout,
  createGuestTicketLinks,
  createGuestTicketsRouter,
  createInternalPaymentsRouter,
  orderQuestions,
  createPaymentsService,
  createPaymentGateway,
  createStartCheckoutHandler,
  createConfirmPaymentHandler,
  createPayRouter,
  createTransactionsRouter,
  createAdminRefundsRouter,
  createAdminUnmatchedPaymentsRouter,
  createAdminReconciliationRouter,
  createPullGateway,
  createReconciliation,
  createEventCancellation,
  createEventSeries,
  createEventSeriesRouter,
  createEventCancellationRouter,
  createSelfCancel,
  createSelfCancelRouter,
  createInstalments,
  createReservationsRouter,
  createInternalRefundsRouter,
  createRefundsService,
  createRefundGateway,
  createRefundsJob,
  type RefundGateway,
} from './modules/checkout/index.js';
import {
  createEventTicketsRouter,
  createTicketSigner,
  createTicketsRouter,
  createTicketsService,
  eventSeats,
  registeredUserIdsColumn,
  ticketRegistrations,
} from './modules/tickets/index.js';
import { createAfricasTalkingGateway, createSmsRouter, createSmsService, createSmsSimulator, SMS_SIMULATOR_API_KEY, SMS_SIMULATOR_USERNAME } from './modules/sms/index.js';
import { createObjectStore, createUnusedUploadsSweep, createUploadsRouter, createUploadsService, serveUploads } from './modules/uploads/index.js';
import { createCheckoutQuestionsRouter, createCheckoutQuestionsService, createGuestOrderAnswersRouter, createOrderAnswersRouter } from './modules/checkout-questions/index.js';
import { createTicketTypesRouter, createTicketTypesService, ticketTypeCount } from './modules/ticket-types/index.js';
import { personalDataMap } from './personal-data-map.js';
import { createWaitlistRouter, createWaitlistService } from './modules/waitlist/index.js';
import { createTeamsRouter, createTeamsService } from './modules/teams/index.js';
import {
  createAdmissionControl,
  createMemorySharedRate,
  createMemoryWaitingRoomStore,
  createRedisSharedRate,
  createRedisWaitingRoomStore,
  createWaitingRoomRouter,
  createWaitingRoomService,
} from './modules/waiting-room/index.js';

export interface AppDeps {
  config: AppConfig;
  db: Database;
  mailer: Mailer;
  logger: Logger;
  /** Shared counts (rate limits, chat budget) across instances; unset = this process's memory. */
  redis?: RedisConnection | undefined;
  /** This instance's own loopback address once it listens (the offline SMS simulator is reached there). */
  selfUrl?: (() => string) | undefined;
  /** Background sweeps (SMS sender, waitlist, reminders) run as jobs here; unset = each instance runs them itself. */
  jobs?: JobQueue | undefined;
  /** Where organisers' payouts go (tests: a stand-in); unset = the payout-accounts module's confirmed destinations. */
  payoutDestinations?: PayoutDestinations | undefined;
  /** Where the refunds job sends attempts (tests record them); default: the payment service at PAYMENT_URL. */
  refundGateway?: RefundGateway | undefined;
}

/**
 * Work per event-loop turn before waiting connections get their accept (see lib/request-gate.ts). A turn
 * accepts one connection, so while new ones arrive the slice is short: with 1 ms, 2,000 clients arriving
 * together on a busy host took over 4 s to be accepted and hundreds timed out at 5 s; with 0.2 ms all were in
 * within 2 s and none timed out. Kept at 0.2 ms throughout, keep-alive traffic lost 10-18 % of its requests
 * per second, so the slice is 1 ms once nobody new has connected for 100 ms.
 */
const REQUEST_SLICE_MS = 1;
const ARRIVING_SLICE_MS = 0.2;

const defaultClientDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../client/dist');

/**
 * Events sits below tickets and payments but must respect what they hold for an event (registered
 * users, the seat lock and counts, orders): it declares the port, and their services fill it here.
 */
export const eventHoldings: EventHoldings = {
  registrations: ticketRegistrations,
  registeredUserIdsColumn,
  seats: eventSeats,
  orders: orderQuestions,
  holders: ticketRegistrations,
  ticketTypeCount,
};

/**
 * SMS go to Africa's Talking, or offline to the simulator this server mounts at /simulator/sms, over the
 * same HTTP protocol (through this instance's own loopback address).
 */
function createSms(deps: AppDeps) {
  const { config, logger } = deps;
  const selfUrl = deps.selfUrl ?? (() => `http://127.0.0.1:${config.port}`);
  const gateway = config.sms.gateway;
  const simulator =
    gateway.kind === 'simulator'
      ? createSmsSimulator({
          key: gateway.key,
          deliveryReportUrl: () => `${selfUrl()}/api/sms/delivery-reports/${config.sms.callbackSecret}`,
          optOutUrl: () => `${selfUrl()}/api/sms/opt-outs/${config.sms.callbackSecret}`,
          logger,
        })
      : undefined;
  const service = createSmsService({
    db: deps.db,
    logger,
    callbackSecret: config.sms.callbackSecret,
    pollMs: config.sms.pollMs,
    maxAttempts: config.sms.maxAttempts,
    jobs: deps.jobs,
    staleSendingMs: config.jobs.expireSeconds * 1000,
    gateway:
      gateway.kind === 'simulator'
        ? createAfricasTalkingGateway({ baseUrl: () => `${selfUrl()}/simulator/sms`, username: SMS_SIMULATOR_USERNAME, apiKey: SMS_SIMULATOR_API_KEY })
        : createAfricasTalkingGateway(gateway),
  });
  return { service, simulator };
}

export function createServices(deps: AppDeps) {
  const { config, db, mailer, logger } = deps;
  const sms = createSms(deps);
  // Ticket and account email: an outbox in the database, sent by a job (contact and moderation mail still go straight out).
  const mail = createMailOutbox({ db, mailer, logger, ...config.mail, jobs: deps.jobs, staleSendingMs: config.jobs.expireSeconds * 1000 });
  // Tells the caches of this and (with Redis) every other instance what changed.
  const changes = createChangeFeed(logger);
  const auth = createAuthService({
    db,
    mailer: mail,
    logger,
    publicUrl: config.publicUrl,
    jwtSecret: config.jwtSecret,
    jwtExpiresIn: config.jwtExpiresIn,
    passwordHashCost: config.passwordHashCost,
    changes,
    authCacheMs: config.authCacheMs,
    // Auth sits below checkout: a sign-in claims the account's guest orders through this port (made below).
    onSignedIn: (user) => guests.claim(user),
  });
  const contact = createContactService({ db, mailer, contactEmail: config.contactEmail });
  const sendBudget = deps.redis
    ? createSharedTokenBuckets(deps.redis.commands, `${deps.redis.keyPrefix}chat-send:`, config.chatRateLimit)
    : createTokenBuckets(config.chatRateLimit);
  const chat = createChatService({ db, people: { profiles: (ids) => chatProfiles(db, ids) }, synchronousCommit: config.chatSynchronousCommit, sendBudget });
  const geocoding = createGeocodingService({ url: config.geocoder.url, timeoutMs: config.geocoder.timeoutMs, logger });
  const events = createEventsService({
    db,
    holdings: eventHoldings,
    geocoding,
    changes,
    publicUrl: config.publicUrl,
    searchCacheMs: config.eventsSearchCacheMs,
    eventCacheMs: config.eventsCacheMs,
    // Holders of an event whose approved change moves its date or place are told through the outbox.
    mail,
    // Events sits below refunds: deleting an event with orders cancels it through this port (made below).
    cancellation: { cancel: (...args) => cancellation.cancel(...args) },
  });
  const uploads = createUploadsService({ store: createObjectStore(config.objectStorage, config.dataDir), publicUrl: config.publicUrl, logger });
  // Images no event shows are removed after a day, as a job (one run per period across instances).
  const uploadsSweep = createUnusedUploadsSweep({ store: uploads.store, imagesInUse: events.imagesInUse, logger, jobs: deps.jobs });
  // Spam brakes: limits scale with the deployment's rate limit (20 by default = the documented limits); holds go to moderation (made below).
  const brakes = createSpamBrakes({ db, scale: config.rateLimit.max / 20, queue: { hold: (...args) => moderation.holdForReview(...args) } });
  const comments = createCommentsService({ db, brakes });
  const reviews = createReviewsService({ db, brakes });
  const forums = createForumsService({ db, brakes });
  // Moderation sits above community, chat and auth: it reaches content, messages and accounts through them.
  const moderation = createModerationService({
    db,
    mailer,
    logger,
    content: createContentModeration({ db, comments, reviews, forums }),
    chat: chat.moderation,
    accounts: auth,
  });
  const signer = createTicketSigner({ signingKey: config.ticketSigningKey, dataDir: config.dataDir });
  // Checkout questions sit above checkout and tickets: both see them through the ports they declare (docs/decisions/checkout-questions.md).
  const checkoutQuestions = createCheckoutQuestionsService({ db });
  // Tickets sits below checkout: it sees orders only through the port it declares (PaidOrders).
  const tickets = createTicketsService({
    db,
    orders: orderQuestions,
    answers: checkoutQuestions,
    signer,
    mail,
    logger,
    changes,
    publicUrl: config.publicUrl,
    // Tickets sits below the waitlist: its sold-out answer asks the waitlist (made below) about expired offers.
    soldOut: { soldOutNote: (...args) => waitlist.soldOutNote(...args) },
  });
  // Prometheus counters of this instance, and the requests a shutdown lets finish.
  const metrics = createMetrics();
  const inFlight = createInFlightTracker();
  const teams = createTeamsService({ db, mail, logger, publicUrl: config.publicUrl });
  const waitlist = createWaitlistService({ db, tickets, changes, logger, publicUrl: config.publicUrl, ...config.waitlist, sms: sms.service, jobs: deps.jobs });
  // PAYMENT_PASSES=jobs: the payment service's reconciler passes are this server's jobs (local: its own timer).
  const paymentPasses =
    config.paymentPasses.mode === 'jobs'
      ? createPaymentPasses({
          paymentUrl: config.paymentUrl,
          internalApiKey: config.internalApiKey,
          logger,
          reconcileMs: config.paymentPasses.reconcileMs,
          jobs: deps.jobs,
          timeoutMs: Math.max(1000, Math.floor(config.jobs.expireSeconds * 900)),
        })
      : undefined;
  const reminders = createEventReminders({ db, sms: sms.service, logger, publicUrl: config.publicUrl, sweepMs: config.sms.reminderSweepMs, jobs: deps.jobs });
  // Guest ticket links are signed with the server secret: nothing to store, valid on every instance.
  const guestLinks = createGuestTicketLinks({ secret: config.jwtSecret, publicUrl: config.publicUrl });
  // The line in front of a busy sale's seat holds: one line for every instance with Redis.
  // Its admission rate follows how fast seat holds go, shared by every instance with Redis.
  const admissionRate = createAdmissionControl(
    { adaptive: config.waitingRoom.adaptive, initial: config.waitingRoom.perSecond, min: config.waitingRoom.minPerSecond, max: config.waitingRoom.maxPerSecond, targetMs: config.waitingRoom.targetMs, pushTargetMs: config.waitingRoom.pushTargetMs },
    deps.redis ? createRedisSharedRate(deps.redis.commands, deps.redis.keyPrefix) : createMemorySharedRate(),
    logger,
    // Holds of the last minute older than the push target and still without a push, whichever instance holds them.
    (olderThanMs) => orderQuestions(db).countHoldsWithoutPush(new Date(Date.now() - 60_000), new Date(Date.now() - olderThanMs)),
  );
  const lineRate = {
    get perSecond() {
      return admissionRate.perSecond;
    },
    burst: config.waitingRoom.burst,
  };
  metrics.gauge('waiting_room_admission_rate', 'Buyers admitted per second to each busy sale (the waiting room).', () => admissionRate.perSecond);
  const waitingRoom = createWaitingRoomService({
    store: deps.redis ? createRedisWaitingRoomStore(deps.redis.commands, deps.redis.keyPrefix, lineRate) : createMemoryWaitingRoomStore(lineRate),
    rate: admissionRate,
    turnSeconds: config.waitingRoom.turnSeconds,
    seats: {
      async seatsLeft(eventId) {
        const seats = eventSeats(db);
        const event = await seats.findEvent(eventId);
        if (!event || event.capacity === null) return null;
        return Math.max(0, event.capacity - (await seats.seatsTaken(eventId, new Date())));
      },
    },
  });
  const payments = createPaymentsService({ db, tickets, logger, holdMinutes: config.holdMinutes, mpesaTariff: config.fees.mpesaTariff, metrics, waitlist, guests: { links: guestLinks, sms: sms.service }, paybillOffered: Boolean(config.paybillShortcode) });
  const guests = createGuestCheckout({ db, payments, links: guestLinks, logger });
  // The checkout the browser drives (/pay): this server holds and records; the payment service only speaks to M-Pesa.
  const paymentGateway = createPaymentGateway({ paymentUrl: config.paymentUrl, internalApiKey: config.internalApiKey, timeoutMs: config.paymentProxyTimeoutMs });
  const startCheckout = createStartCheckoutHandler({ payments, guests, line: waitingRoom, gateway: paymentGateway, answers: checkoutQuestions, logger, pushSeconds: metrics.pushSeconds });
  const confirmPayment = createConfirmPaymentHandler({ payments, gateway: paymentGateway, logger, queryAfterSeconds: config.confirmQueryAfterSeconds });
  // Paying in parts (docs/decisions/instalments.md): prompts towards a reservation, reminders and lapses, looked at as often as event reminders.
  const instalments = createInstalments({ db, payments, gateway: paymentGateway, sms: sms.service, changes, logger, publicUrl: config.publicUrl, paybillShortcode: config.paybillShortcode, sweepMs: config.sms.reminderSweepMs, jobs: deps.jobs });
  const cancellation = createEventCancellation({ db, tickets, changes, publicUrl: config.publicUrl });
  const series = createEventSeries({ db, changes, mail, publicUrl: config.publicUrl });
  const selfCancel = createSelfCancel({ db, tickets, changes, publicUrl: config.publicUrl });
  // Where organisers are paid: the SMS code proves the number, the outbox mails a change (the payouts job reads payoutDestination).
  const payoutAccounts = createPayoutAccountsService({ db, sms: sms.service, mail, logger, codeSecret: config.jwtSecret, publicUrl: config.publicUrl });
  const dashboard = createEventDashboardService({ db });
  const ledger = createLedgerService({ db });
  const fees = createFeesService({ db });
  // Organisers get paid: a job makes each due payout once and sends it through the payment service (docs/decisions/payouts.md).
  const payouts = createPayouts({
    db,
    logger,
    gateway: createPayoutGateway({ paymentUrl: config.paymentUrl, internalApiKey: config.internalApiKey, timeoutMs: config.paymentProxyTimeoutMs }),
    destinations: deps.payoutDestinations ?? payoutAccounts,
    rules: { delayDays: config.payouts.delayDays, earlySharePercent: config.payouts.earlySharePercent, minAmount: config.payouts.minAmount },
    resultWaitSeconds: config.payouts.resultWaitSeconds,
    maxAttempts: config.payouts.maxAttempts,
    retryBaseMs: config.payouts.retryBaseMs,
    jobMs: config.payouts.jobMs,
    mpesaTariff: config.fees.mpesaTariff,
    jobs: deps.jobs,
  });
  const refunds = createRefundsService({ db, logger, retryBaseMs: config.refunds.retryBaseMs, maxAttempts: config.refunds.maxAttempts, auditPayouts: payouts.audit });
  // Refunds go back the same way: a job claims each due one and sends its attempt through the payment service (docs/decisions/refunds.md).
  const refundsJob = createRefundsJob({
    db,
    refunds,
    gateway: deps.refundGateway ?? createRefundGateway({ paymentUrl: config.paymentUrl, internalApiKey: config.internalApiKey, timeoutMs: config.paymentProxyTimeoutMs }),
    logger,
    resultWaitMs: config.refunds.resultWaitMs,
    everyMs: config.refunds.jobMs,
    jobs: deps.jobs,
  });
  // Paybill reconciliation with M-Pesa's Pull Transactions, daily (docs/decisions/reconciliation.md).
  const reconciliation = createReconciliation({
    db,
    gateway: createPullGateway({ paymentUrl: config.paymentUrl, internalApiKey: config.internalApiKey, timeoutMs: config.paymentProxyTimeoutMs }),
    paybill: payments.paybill,
    queueMail: (what, build) => tickets.queueMail(what, build),
    logger,
    windowHours: config.paybillReconcile.windowHours,
    everyMs: config.paybillReconcile.everyMs,
    jobs: deps.jobs,
  });
  const ticketTypes = createTicketTypesService({ db, changes, payments });
  // "Download my data": every table the personal-data map names, zipped by a job and mailed as a single-use link.
  const dataExports = createDataExportService({ db, map: personalDataMap, accounts: auth, mail, logger, publicUrl: config.publicUrl, jobs: deps.jobs });
  // "Delete my account": confirmed by mail, deactivated at once, erased from the personal-data map after the grace period.
  const accountDeletions = createAccountDeletionService({
    db,
    map: personalDataMap,
    accounts: { getUser: (id) => auth.getUser(id), passwordMatches, setDeactivated: (id, deactivated) => auth.setDeactivated(id, deactivated), forget: (id) => auth.forget(id) },
    // What an organiser is still owed or being sent: any event whose balance is not zero, and payouts in flight.
    moneyOwed: async (userId) => {
      const summary = await payouts.service.summary({ id: userId, username: '', email: '', role: 'user' });
      const owed = summary.events.filter((event) => event.owed !== 0).map((event) => ({ eventId: event.eventId, title: event.title, owed: event.owed }));
      return summary.inFlight > 0 ? [...owed, { eventId: '', title: 'payouts being sent', owed: summary.inFlight }] : owed;
    },
    mail,
    logger,
    publicUrl: config.publicUrl,
    graceDays: config.accountDeletionGraceDays,
    jobs: deps.jobs,
  });
  // Retention: once a day, the buyers' details of events ended PERSONAL_DATA_RETENTION_DAYS ago are erased.
  const retention = createRetentionService({ db, map: retentionMap, logger, retentionDays: config.personalDataRetentionDays, jobs: deps.jobs });
  const privacy = privacySettingsOf({
    retentionDays: config.personalDataRetentionDays,
    dataExportLinkMs: DATA_EXPORT_LINK_MS,
    dataExportIntervalMs: DATA_EXPORT_INTERVAL_MS,
    mailKeepDays: config.mail.keepDays,
    deletionGraceDays: config.accountDeletionGraceDays,
  });
  // Organisers' integrations: API keys for /api/v1, and signed webhooks sent by a job (docs/decisions/webhooks.md).
  const apiKeys = createApiKeysService({ db });
  const webhooks = createWebhooks({ db, logger, ...config.webhooks, jobs: deps.jobs });
  const { redis } = deps;
  const ops = createOpsService({
    db,
    metrics,
    inFlight,
    redisReady: redis ? () => redis.publisher.isReady && redis.subscriber.isReady : undefined,
    queues: { 'ticket-mail': tickets.mailQueueDepth, 'account-mail': auth.mailQueueDepth, 'mail-outbox': mail.depth },
  });
  return { checkoutQuestions, apiKeys, webhooks, mail, teams, dataExports, accountDeletions, retention, privacy, paymentPasses, startCheckout, confirmPayment, instalments, auth, contact, chat, comments, reviews, forums, moderation, tickets, payments, guests, refunds, refundsJob, reconciliation, cancellation, series, selfCancel, dashboard, ledger, fees, payoutAccounts, payouts, ticketTypes, waitlist, waitingRoom, sms: sms.service, smsSimulator: sms.simulator, reminders, admissionRate, geocoding, events, uploads, uploadsSweep, changes, metrics, inFlight, ops };
}

export type Services = ReturnType<typeof createServices>;

function contentSecurityPolicy(config: AppConfig, frameAncestors: string[] = ["'none'"]) {
  // The browser reaches the payment service same-origin (/pay); only a client built with
  // VITE_PAYMENT_URL calls another origin.
  const paymentOrigins = config.paymentBrowserOrigin ? [config.paymentBrowserOrigin] : [];
  // /uploads redirects images to S3_PUBLIC_URL when set; a plain-http bucket (MinIO in development) must be allowed too.
  const bucketOrigins = config.objectStorage.kind === 's3' && config.objectStorage.publicUrl ? [new URL(config.objectStorage.publicUrl).origin] : [];
  return {
    useDefaults: true,
    directives: {
      'default-src': ["'self'"],
      'script-src': ["'self'"],
      'style-src': ["'self'", "'unsafe-inline'"],
      'img-src': ["'self'", 'data:', 'blob:', 'https:', ...bucketOrigins],
      'font-src': ["'self'", 'data:'],
      'connect-src': ["'self'", 'ws:', 'wss:', ...paymentOrigins],
      'frame-ancestors': frameAncestors,
      'upgrade-insecure-requests': null,
    },
  };
}

/**
 * Helmet's headers. Every page refuses to be framed (frame-ancestors 'none', X-Frame-Options) and its files are
 * same-origin only (Cross-Origin-Resource-Policy), except the ticket widget's two (docs/decisions/widget.md):
 * its page /embed/* may be framed by any website, and /widget.js loaded by any website.
 */
function securityHeaders(config: AppConfig): RequestHandler {
  const pages = helmet({ contentSecurityPolicy: contentSecurityPolicy(config), crossOriginEmbedderPolicy: false });
  const frameable = helmet({
    contentSecurityPolicy: contentSecurityPolicy(config, ['*']),
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    xFrameOptions: false,
  });
  const widgetScript = helmet({ contentSecurityPolicy: contentSecurityPolicy(config), crossOriginEmbedderPolicy: false, crossOriginResourcePolicy: { policy: 'cross-origin' } });
  return (req, res, next) => {
    if (isFrameablePath(req.path)) frameable(req, res, next);
    else if (req.path === WIDGET_SCRIPT_PATH) widgetScript(req, res, next);
    else pages(req, res, next);
  };
}

export function createApp(deps: AppDeps): { app: Express; services: Services } {
  const { config, logger } = deps;
  const services = createServices(deps);
  const app = express();
  app.disable('x-powered-by');
  if (config.trustProxy) app.set('trust proxy', 1);
  // First, so every request is counted and timed, and a shutdown waits for it.
  app.use(services.inFlight.middleware, services.metrics.httpMiddleware());
  // Then queued and run in short slices, so a busy server keeps accepting new connections (lib/request-gate.ts).
  app.use(createRequestGate({ sliceMs: REQUEST_SLICE_MS, arrivingSliceMs: ARRIVING_SLICE_MS }));
  // Request id (header, log lines, 5xx bodies) and one log line per answered request.
  app.use(requestContext(logger));

  app.use(securityHeaders(config));
  // Probes and metrics for the platform (/healthz, /readyz, /metrics), before the client's history fallback.
  app.use(createOpsRouter({ ops: services.ops, metricsToken: config.metricsToken }));
  app.use(
    '/api',
    cors({
      origin: (origin, callback) => callback(null, !origin || config.corsOrigins.includes(origin)),
      credentials: true,
    }),
  );
  app.use('/api', express.json({ limit: '1mb' }));
  app.use('/api', authenticateRequests(services.auth, { restrictionReason: (userId) => services.moderation.restrictionReason(userId) }));
  // Organiser-scoped routes that declare `team` ask the teams module whether the caller acts for the event's organiser.
  app.use('/api', (req, _res, next) => {
    req.teamAccess = services.teams.accessFor;
    req.teamAccessForOrganiser = services.teams.accessForOrganiser;
    next();
  });


  declareRoutes(app, 'Health').get(
    '/api/health',
    {
      summary: 'Liveness: the API answers and reaches its database',
      access: 'public',
      responses: { 200: { description: '`{status:"ok"}`.', schema: z.object({ status: z.literal('ok') }) }, 503: 'The database is unreachable.' },
    },
    async () => {
      await services.ops.pingDatabase();
      return { status: 'ok' };
    },
  );

  // With Redis every instance counts the same budgets (a second instance gives an attacker nothing more).
  const budgets = deps.redis ? sharedBudgets(deps.redis.commands, deps.redis.keyPrefix) : localBudgets();
  const rateLimit = { ...config.rateLimit, budgets };
  const sendMessage = createSendMessage({
    chat: services.chat,
    contact: services.contact,
    contactLimit: limitPerIp({ ...rateLimit, name: 'contact' }),
  });
  app.use('/api/auth', createAuthRouter({ auth: services.auth, rateLimit, sendMessage }));
  app.use('/api/api-keys', createApiKeysRouter({ apiKeys: services.apiKeys }));
  app.use('/api/webhooks', createWebhooksRouter({ webhooks: services.webhooks }));
  app.use('/api/v1', createApiV1Router({ db: deps.db, apiKeys: services.apiKeys, events: services.events, tickets: services.tickets }));
  app.use('/api/me', createDataExportRouter({ dataExports: services.dataExports }));
  app.use('/api/me', createOrderAnswersRouter({ questions: services.checkoutQuestions }));
  app.use('/api/me', createAccountDeletionRequestRouter({ deletions: services.accountDeletions }));
  app.use('/api/account-deletion', createAccountDeletionLinksRouter({ deletions: services.accountDeletions }));
  app.use('/api/privacy', createPrivacyRouter({ settings: services.privacy }));
  app.use('/api/admin', createAdminRetentionRouter({ retention: services.retention }));
  app.use('/api/messages', createChatRouter({ chat: services.chat, sendMessage }));
  app.use('/api/comments', createCommentsRouter({ comments: services.comments }));
  app.use('/api/reviews', createReviewsRouter({ reviews: services.reviews }));
  app.use('/api/forums', createForumsRouter({ forums: services.forums }));
  app.use('/api/moderation', createModerationRouter({ moderation: services.moderation }));
  app.use('/api/internal/payments', createInternalPaymentsRouter({ payments: services.payments, guests: services.guests, waitingRoom: services.waitingRoom, internalApiKey: config.internalApiKey, pushSeconds: services.metrics.pushSeconds }));
  app.use('/api/guest-tickets', createGuestTicketsRouter({ guests: services.guests }));
  app.use('/api/guest-tickets', createGuestOrderAnswersRouter({ questions: services.checkoutQuestions, orderOfGuestLink: (token) => services.guests.orderOfLink(token) }));
  app.use('/api/transactions', createTransactionsRouter({ payments: services.payments }));
  app.use('/api/internal', createInternalRefundsRouter({ refunds: services.refunds, internalApiKey: config.internalApiKey }));
  app.use('/api/admin', createAdminRefundsRouter({ refunds: services.refunds }));
  app.use('/api/admin/unmatched-payments', createAdminUnmatchedPaymentsRouter({ paybill: services.payments.paybill }));
  app.use('/api/admin/reconciliation', createAdminReconciliationRouter({ reconciliation: services.reconciliation }));
  app.use('/api/admin', createAdminEventsRouter({ events: services.events }));
  app.use('/api/admin', createAdminLedgerRouter({ ledger: services.ledger }));
  app.use('/api/admin', createAdminFeesRouter({ fees: services.fees }));
  app.use('/api/admin', createAdminPayoutsRouter({ payouts: services.payouts.service }));
  app.use('/api/admin', createAdminAccountDeletionRouter({ deletions: services.accountDeletions }));
  app.use('/api/internal/payouts', createInternalPayoutsRouter({ recordResult: services.payouts.recordResult, internalApiKey: config.internalApiKey }));
  app.use('/api/payouts', createPayoutsRouter({ payouts: services.payouts.service }));
  app.use('/api/tickets', createTicketsRouter({ tickets: services.tickets }));
  app.use('/api/tickets', createSelfCancelRouter({ selfCancel: services.selfCancel }));
  app.use('/api/reservations', createReservationsRouter({ instalments: services.instalments }));
  // Ticket paths under /api/events (register, check-in, attendees); every other /api/events path falls through.
  app.use('/api/events', createEventTicketsRouter({ tickets: services.tickets }));
  app.use('/api/events', createEventCancellationRouter({ cancellation: services.cancellation, refunds: services.refunds }));
  app.use('/api/events', createEventSeriesRouter({ series: services.series }));
  app.use('/api/events', createWaitlistRouter({ waitlist: services.waitlist }));
  app.use('/api/teams', createTeamsRouter({ teams: services.teams }));
  app.use('/api/events', createWaitingRoomRouter({ waitingRoom: services.waitingRoom }));
  app.use('/api/events', createTicketTypesRouter({ ticketTypes: services.ticketTypes }));
  app.use('/api/events', createCheckoutQuestionsRouter({ questions: services.checkoutQuestions }));
  app.use('/api/events', createEventDashboardRouter({ dashboard: services.dashboard }));
  app.use('/api/events', createEventLedgerRouter({ ledger: services.ledger }));
  app.use('/api/sms', createSmsRouter({ sms: services.sms }));
  // Password checks and code sends: bounded per address on top of the service's per-account code budget.
  app.use('/api/payout-account', createPayoutAccountsRouter({ payoutAccounts: services.payoutAccounts, limit: limitPerIp({ ...rateLimit, name: 'payout-account' }) }));

  // Public counters (opens, shares) are generous per IP but bounded, so trending cannot be flooded from one address.
  const counterLimit = limitPerIp({ name: 'event-counters', windowMs: rateLimit.windowMs, budgets: rateLimit.budgets, max: rateLimit.max * 10 });
  // The whole-list contract answers are megabytes at scale, and the first after a change reads every event: bounded per address.
  const listLimit = limitPerIp({ name: 'event-lists', windowMs: rateLimit.windowMs, budgets: rateLimit.budgets, max: rateLimit.max * 30 });
  app.use('/api/events', createEventsRouter({ events: services.events, counterLimit, listLimit }));
  app.use('/api/uploads', createUploadsRouter({ uploads: services.uploads, uploadLimit: limitPerIp({ name: 'uploads', windowMs: rateLimit.windowMs, budgets: rateLimit.budgets, max: rateLimit.max * 3 }) }));
  app.use('/api/geocode', createGeocodingRouter({ geocoding: services.geocoding, limit: limitPerIp({ name: 'geocode', windowMs: rateLimit.windowMs, budgets: rateLimit.budgets, max: rateLimit.max * 5 }) }));

  // OpenAPI document and page, generated from the routes' declarations above (built on first request).
  app.use('/api/docs', createDocsRouter({ app }));

  app.use('/api', notFoundHandler);
  app.use('/uploads', ...serveUploads(services.uploads.store, logger));
  // The checkout, same-origin: /pay/stkPush and /pay/confirmPayment (the payment service's section-7 endpoints forward here).
  app.use(
    '/pay',
    authenticateRequests(services.auth, { restrictionReason: (userId) => services.moderation.restrictionReason(userId) }),
    createPayRouter({
      startCheckout: services.startCheckout,
      confirmPayment: services.confirmPayment,
      rateLimit: config.stkRateLimit,
      internalApiKey: config.internalApiKey,
      redis: deps.redis && { commands: deps.redis.commands, keyPrefix: deps.redis.keyPrefix },
      simulatorUrl: config.darajaSimulatorUrl,
      paybillShortcode: config.paybillShortcode,
    }),
  );
  app.use('/pay', notFoundHandler);
  // The offline SMS simulator (no Africa's Talking configured) answers here; the M-Pesa one is the Daraja simulator's process.
  if (services.smsSimulator) app.use('/simulator/sms', services.smsSimulator.router);
  if (config.darajaSimulatorUrl) {
    // Its phone pages only (never its Daraja protocol), and without the key that vouches for forwarded addresses.
    app.use('/simulator', createSimulatorProxy({ targetUrl: config.darajaSimulatorUrl, timeoutMs: config.paymentProxyTimeoutMs, logger }));
  }

  const clientDist = config.clientDist ?? defaultClientDist;
  const indexHtml = path.join(clientDist, 'index.html');
  if (existsSync(indexHtml)) {
    const appShell = createAppShellSource(indexHtml);
    // The build's Brotli / gzip twins of its files when the browser accepts them, else the file itself.
    app.use(
      '/assets',
      expressStaticGzip(path.join(clientDist, 'assets'), {
        enableBrotli: true,
        orderPreference: ['br', 'gzip'],
        index: false,
        serveStatic: { immutable: true, maxAge: '1y', fallthrough: false },
      }),
    );
    // Pages built per request go out compressed too.
    const compressed = compression();
    // Shared event links get the event's Open Graph / JSON-LD tags in the shell. Before the static files: the
    // build has no file under /events/, and looking for one cost every page request a stat().
    app.get(
      '/events/:id',
      compressed,
      createEventPageHandler({
        events: services.events,
        shell: appShell,
        clientDist,
        publicUrl: config.publicUrl,
        logger,
      }),
    );
    // The ticket widget's script for other websites (docs/decisions/widget.md); the page it frames is the app shell below.
    app.get(WIDGET_SCRIPT_PATH, compressed, createWidgetScriptHandler(clientDist));
    app.use(
      express.static(clientDist, {
        index: false,
        maxAge: '1h',
        // The service worker is checked on every visit, so a new build reaches installed apps at once.
        setHeaders: (res, file) => {
          if (path.basename(file) === 'sw.js') res.setHeader('Cache-Control', 'no-cache');
        },
      }),
    );
    // Served by express.static above when the build has one; never the shell (a browser refuses HTML as a worker).
    app.get('/sw.js', (_req, res) => {
      res.status(404).end();
    });
    // The event list's page carries its first search; every other client route answers with the plain app shell.
    app.get('/events', compressed, createAppShellHandler(appShell, { data: eventListPageData(services.events), logger }));
    app.get(/^(?!\/api\/|\/socket\.io\/).*/, compressed, createAppShellHandler(appShell));
  } else {
    logger.info(`client build not found at ${clientDist}; serving the API only`);
  }

  app.use(createErrorHandler(logger));
  return { app, services };
}
