import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server as SocketServer } from 'socket.io';
import { listen, outlastClientKeepAlive } from '@tukio/shared/node/listen';
import { createApp, type Services } from './app.js';
import { bootstrapDatabase } from './bootstrap/bootstrap.js';
import { seedDemoActivity } from './bootstrap/demo-activity.js';
import type { AppConfig } from './config.js';
import { openDatabase, pgliteDataDir, type Database } from './db/database.js';
import { startJobQueue, type JobQueue } from './lib/job-queue.js';
import { createLogger } from './lib/logger.js';
import { createMailer } from './lib/mailer.js';
import { connectRedis } from './lib/redis.js';
import type { PayoutDestinations } from './modules/payouts/index.js';
import { createRealtime } from './realtime.js';

const MAIL_FLUSH_TIMEOUT_MS = 5000;
/**
 * Connections the kernel holds for us until accepted (capped by net.core.somaxconn). Node's 511 is
 * overrun by a burst of a few thousand clients, whose connects are then dropped and retried seconds later.
 */
const LISTEN_BACKLOG = 4096;
/** How long a shutdown lets requests in flight finish before cutting their connections. */
const DRAIN_TIMEOUT_MS = 5000;
/** How long a shutdown lets background jobs in hand finish; the rest are failed and retried by another instance. */
const JOBS_STOP_TIMEOUT_MS = 5000;

export interface RunningServer {
  url: string;
  port: number;
  httpServer: HttpServer;
  /** Socket.IO, for tests that check how instances are joined. */
  io: SocketServer;
  /** The server's database, for tests and scripts that need to set up rows directly. */
  db: Database;
  /** Its services, for tests that run background work (a reminder sweep, the SMS sender) at a moment they choose. */
  services: Services;
  /** The job queue its background sweeps run on, for tests that run jobs of their own. */
  jobs: JobQueue;
  close(): Promise<void>;
}

/** Opens the database, builds the app and listens; used by index.ts and by tests and benches alike. */
export async function startServer(
  config: AppConfig,
  /** Tests: `inMemory` keeps PGlite in memory, started from `startFrom` (a dump of a migrated database) when given. */
  options: { databaseUrl?: string | undefined; inMemory?: boolean; startFrom?: Blob | undefined; payoutDestinations?: PayoutDestinations | undefined } = {},
): Promise<RunningServer> {
  const logger = createLogger(config.logLevel);
  const databaseUrl = options.databaseUrl ?? config.databaseUrl;
  const database = await openDatabase({
    url: databaseUrl,
    dataDir: options.inMemory ? undefined : pgliteDataDir(config.dataDir),
    startFrom: options.inMemory ? options.startFrom : undefined,
  });
  const seededDemo = await bootstrapDatabase(database.db, config, logger);
  // pg-boss's tables (schema pgboss) are created here when missing, not by a migration: it versions its own.
  const jobs = await startJobQueue({ executeSql: database.executeSql, logger, ...config.jobs });
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, logger });
  // Connected before the app is built: its rate limits and chat budget count in Redis from the first request.
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, config.redisKeyPrefix, config.redisCommandTimeoutMs, logger) : undefined;
  // Known once listening (PORT may be 0): the offline SMS simulator is reached through it.
  let selfUrl = `http://127.0.0.1:${config.port}`;
  const { app, services } = createApp({ config, db: database.db, mailer, logger, redis, selfUrl: () => selfUrl, jobs, payoutDestinations: options.payoutDestinations });
  if (seededDemo) await seedDemoActivity(services, database.db, seededDemo);
  const httpServer = createServer(app);
  outlastClientKeepAlive(httpServer);
  const realtime = await createRealtime(httpServer, config, services, logger, redis).catch(async (error: unknown) => {
    await redis?.close();
    throw error;
  });
  services.metrics.gauge('socket_connections', 'Open Socket.IO connections on this instance.', () => realtime.io.engine.clientsCount);
  /** The job queue, Redis, the mailer and the database: the last things a shutdown (or a failed start) closes. */
  const closeConnections = async () => {
    await jobs.stop(JOBS_STOP_TIMEOUT_MS);
    await redis?.close();
    mailer.close();
    await database.close();
  };
  // A port in use fails the start, with what was opened closed again.
  await listen(httpServer, { port: config.port, backlog: LISTEN_BACKLOG }).catch(async (error: unknown) => {
    await realtime.close();
    await closeConnections();
    throw error;
  });
  const port = (httpServer.address() as AddressInfo).port;
  selfUrl = `http://127.0.0.1:${port}`;
  services.sms.start();
  services.mail.start();
  services.webhooks.start();
  services.paymentPasses?.start();
  services.reminders.start();
  services.instalments.start();
  if (config.sms.gateway.kind === 'simulator') logger.info(`SMS simulator (every message each phone received): ${config.publicUrl}/simulator/sms?key=${config.sms.gateway.key}`);
  // Every waitlist is looked at now and then (offers that ran out pass on); each instance may, the event lock keeps it once.
  services.waitlist.start();
  services.admissionRate.start();
  services.uploadsSweep.start();
  services.payouts.job.start();
  services.refundsJob.start();
  services.reconciliation.start();
  await services.dataExports.start();
  await services.accountDeletions.start();
  services.retention.start();
  logger.info(`API and client on http://localhost:${port} (database: ${database.driver})`);

  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    httpServer,
    io: realtime.io,
    services,
    jobs,
    db: database.db,
    close() {
      closing ??= (async () => {
        // Drain: stop accepting connections (idle keep-alive ones close now), and let the requests in
        // flight finish; their responses say Connection: close, and /readyz answers 503 meanwhile.
        const stopped = new Promise<void>((resolve) => httpServer.close(() => resolve()));
        if (await services.inFlight.drain(DRAIN_TIMEOUT_MS)) httpServer.closeIdleConnections();
        else {
          logger.error('shutdown: requests still in flight were cut off');
          httpServer.closeAllConnections();
        }
        // Then the sockets: clients are told the server is going away and reconnect to another instance.
        await realtime.close();
        httpServer.closeAllConnections();
        await stopped;
        services.admissionRate.stop();
        await services.waitlist.stop();
        await services.uploadsSweep.stop();
        await services.dataExports.stop();
        await services.accountDeletions.stop();
        await services.retention.stop();
        await services.reminders.stop();
        await services.instalments.stop();
        await services.payouts.job.stop();
        await services.refundsJob.stop();
        await services.webhooks.stop();
        await services.reconciliation.stop();
        await services.sms.stop();
        await services.paymentPasses?.stop();
        // Mail still being built or looked up in memory reaches the outbox (index.ts gives the whole shutdown
        // 20 s); what the outbox holds is sent by whichever instance runs its next job.
        if (!(await services.tickets.flushMail(MAIL_FLUSH_TIMEOUT_MS))) logger.error('shutdown: queued ticket emails were not all written to the outbox');
        if (!(await services.auth.flushMail(MAIL_FLUSH_TIMEOUT_MS))) logger.error('shutdown: queued account emails were not all written to the outbox');
        if (!(await services.mail.stop(MAIL_FLUSH_TIMEOUT_MS))) logger.error('shutdown: mail due now was not all sent; the outbox keeps it for the next instance');
        await closeConnections();
      })();
      return closing;
    },
  };
}
