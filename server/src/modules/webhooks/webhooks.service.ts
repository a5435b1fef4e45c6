import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { JobQueue } from '../../lib/job-queue.js';
import type { Logger } from '../../lib/logger.js';
import { createRepeatingTask } from '../../lib/repeating-task.js';
import { onWebhookQueued } from './emit-webhook.js';
import { postWebhook, refusedWebhookUrl } from './webhook-address.js';
import { newWebhookSecret, webhookHeaders } from './webhook-signature.js';
import { createWebhooksRepository, type WebhookDeliveryRow, type WebhookEndpointRow } from './webhooks.repository.js';

export interface WebhooksDeps {
  db: Database;
  logger: Logger;
  /** How often the sender looks for due deliveries, as a job per period (0: only when nudged; tests call `sendDue`). */
  pollMs: number;
  /** Attempts per round before a delivery is left `failed` (the organiser may "send again"). */
  maxAttempts: number;
  /** The first retry's delay, doubling with each attempt, at most an hour. */
  retryBaseMs: number;
  timeoutMs: number;
  /** Loopback and private addresses allowed (tests, a receiver on the operator's own network). */
  allowPrivate: boolean;
  jobs?: JobQueue | undefined;
}

const BATCH = 20;
const HOUR = 60 * 60 * 1000;
const LOG_SIZE = 50;

const endpointView = (row: WebhookEndpointRow) => ({ _id: row.id, url: row.url, events: row.events, createdAt: row.createdAt.toISOString() });

/** Organisers' webhook endpoints, the delivery log and the sender job (docs/decisions/webhooks.md). */
export function createWebhooks(deps: WebhooksDeps) {
  const { db, logger } = deps;
  const backoff = (attempts: number) => Math.min(HOUR, deps.retryBaseMs * 2 ** Math.max(0, attempts - 1));

  async function sendOne(delivery: WebhookDeliveryRow, endpoint: WebhookEndpointRow) {
    const repo = createWebhooksRepository(db);
    const body = JSON.stringify({ id: delivery.id, ...(delivery.payload as object) });
    const started = Date.now();
    const result = endpoint.removedAt
      ? { statusCode: null, error: 'endpoint removed' }
      : await postWebhook(endpoint.url, webhookHeaders(endpoint.secret, delivery.id, body), body, { allowPrivate: deps.allowPrivate, timeoutMs: deps.timeoutMs });
    const attempt = { ...result, durationMs: Date.now() - started };
    if (result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300) return repo.recordAttempt(delivery, attempt, { status: 'delivered' });
    if (delivery.attempts < deps.maxAttempts && !endpoint.removedAt) {
      return repo.recordAttempt(delivery, attempt, { status: 'pending', nextAttemptAt: new Date(Date.now() + backoff(delivery.attempts)) });
    }
    logger.info(`webhook ${delivery.id} (${delivery.eventType}) failed after ${delivery.attempts} attempts: ${result.error ?? `HTTP ${result.statusCode}`}`);
    return repo.recordAttempt(delivery, attempt, { status: 'failed' });
  }

  async function sendDueNow(): Promise<number> {
    const now = new Date();
    // The lease outlasts a send (its timeout): a sender that dies mid-send leaves the row due again after it.
    const claimed = await db.transaction((tx) => createWebhooksRepository(tx).claim(BATCH, now, new Date(now.getTime() + deps.timeoutMs * 2)));
    await Promise.all(claimed.map(({ delivery, endpoint }) => sendOne(delivery, endpoint)));
    if (claimed.length === BATCH) sender.soon();
    return claimed.length;
  }

  const sender = createRepeatingTask('webhook sender', sendDueNow, { everyMs: deps.pollMs, logger, jobs: deps.jobs });

  const notFound = () => AppError.notFound('webhook_not_found', 'Webhook endpoint or delivery not found.');

  return {
    async addEndpoint(userId: string, input: { url: string; events: string[] }) {
      const refused = refusedWebhookUrl(input.url, deps.allowPrivate);
      if (refused) throw new AppError(400, 'webhook_url_refused', `Webhooks go only to https addresses on the public internet: ${refused}`, { params: { reason: refused }, field: 'url' });
      const row = await createWebhooksRepository(db).addEndpoint({ userId, url: input.url, events: [...new Set(input.events)], secret: newWebhookSecret() });
      // The secret is shown here once; the list never shows it again.
      return { endpoint: endpointView(row), secret: row.secret };
    },
    async endpoints(userId: string) {
      return { endpoints: (await createWebhooksRepository(db).listEndpoints(userId)).map(endpointView) };
    },
    async removeEndpoint(userId: string, id: string) {
      if (!(await createWebhooksRepository(db).removeEndpoint(userId, id))) throw notFound();
      return { removed: true };
    },
    async deliveries(userId: string) {
      const rows = await createWebhooksRepository(db).log(userId, LOG_SIZE);
      return {
        deliveries: rows.map(({ delivery, url, attempts }) => ({
          _id: delivery.id,
          endpointId: delivery.endpointId,
          url,
          eventType: delivery.eventType,
          status: delivery.status,
          lastStatusCode: delivery.lastStatusCode,
          lastError: delivery.lastError,
          createdAt: delivery.createdAt.toISOString(),
          deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
          attempts: attempts.map((attempt) => ({ at: attempt.attemptedAt.toISOString(), statusCode: attempt.statusCode, error: attempt.error, durationMs: attempt.durationMs })),
        })),
      };
    },
    async sendAgain(userId: string, id: string) {
      if (!(await createWebhooksRepository(db).sendAgain(userId, id))) throw notFound();
      sender.soon();
      return { queued: true };
    },
    /** Sends what is due now (tests, and the job). */
    sendDue: () => sender.runOnce(),
    start() {
      onWebhookQueued(() => sender.soon());
      sender.start();
    },
    stop: () => sender.stop(),
  };
}

export type Webhooks = ReturnType<typeof createWebhooks>;
