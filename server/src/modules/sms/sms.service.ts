import { normaliseKenyanPhone } from '@tukio/shared/phone';
import type { Database, Executor } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { JobQueue } from '../../lib/job-queue.js';
import type { Logger } from '../../lib/logger.js';
import { createRepeatingTask } from '../../lib/repeating-task.js';
import { toAfricasTalkingNumber, type SmsGateway } from './africas-talking.js';
import { createSmsRepository, type SmsRow } from './sms.repository.js';

export interface SmsServiceDeps {
  db: Database;
  gateway: SmsGateway;
  logger: Logger;
  /** The path secret Africa's Talking's delivery reports carry (the URL set in its dashboard). */
  callbackSecret: string;
  /** How often the sender looks for messages to send, a job per period (0: never on its own; tests call `sendDue`). */
  pollMs: number;
  /** Attempts before a message that keeps failing is left `failed`. */
  maxAttempts: number;
  /** The sender's periodic looks run as jobs here (once per period across instances). */
  jobs?: JobQueue | undefined;
  /**
   * A message left `sending` this long was being sent by an instance that died: it is sent again. The
   * job expiry (a sender job running longer is retried elsewhere), so the retry finds the message.
   */
  staleSendingMs?: number | undefined;
}

/** Messages sent per look; the rest wait for the next one. */
const BATCH = 50;
/** 160 GSM characters make one SMS; longer ones cost several, so messages are cut to three. */
export const SMS_MAX_LENGTH = 459;

/** Final delivery-report statuses; anything else (Sent, Submitted, Buffered) is interim. */
const DELIVERED = new Set(['Success']);
const UNDELIVERED = new Set(['Rejected', 'Failed', 'AbsentSubscriber', 'Expired']);

export interface SmsToSend {
  purpose: string;
  /**
   * Promotional (marketing, announcements of other events): only to people who opted in (users.sms_promotions,
   * the caller picks them) and never to a number that replied STOP (sms_opt_outs), which enqueue drops. Left
   * out, the message is transactional (tickets, codes, reminders and offers the person asked for) and goes anyway.
   * docs/decisions/sms.md, "Consent".
   */
  promotional?: boolean | undefined;
  /** Sent once per key across instances and reruns; leave out when there is no such rule. */
  dedupeKey?: string | undefined;
  /** Any Kenyan mobile form (07…, 01…, 2547…, +2547…). */
  phone: string;
  message: string;
}

/**
 * The SMS channel (docs/decisions/sms.md): an outbox in the database and a sender run as a job.
 * Callers queue a message (in their own transaction when it must go with a change); the sender claims
 * due messages with SKIP LOCKED, sends each through Africa's Talking (or its offline simulator), and
 * retries with back-off what may pass later. Delivery reports close the loop.
 */
export function createSmsService(deps: SmsServiceDeps) {
  const { db, logger } = deps;

  const backoff = (attempts: number) => Math.min(60 * 60 * 1000, 30_000 * 2 ** Math.max(0, attempts - 1));

  async function sendOne(row: SmsRow) {
    const repo = createSmsRepository(db);
    const outcome = await deps.gateway.send({ to: toAfricasTalkingNumber(row.phone), message: row.message });
    if (outcome.kind === 'accepted') return repo.accepted(row.id, outcome);
    if (outcome.retry && row.attempts < deps.maxAttempts) {
      logger.info(`sms ${row.id} (${row.purpose}) refused for now: ${outcome.providerStatus}`);
      return repo.again(row.id, new Date(Date.now() + backoff(row.attempts)), outcome.providerStatus);
    }
    logger.error(`sms ${row.id} (${row.purpose}) not sent: ${outcome.providerStatus}`);
    return repo.failed(row.id, outcome.providerStatus);
  }

  async function sendDueNow(): Promise<number> {
    const now = new Date();
    const claimed = await db.transaction((tx) => createSmsRepository(tx).claim(BATCH, now, new Date(now.getTime() - (deps.staleSendingMs ?? 5 * 60 * 1000))));
    for (const row of claimed) {
      await sendOne(row).catch((error: unknown) => logger.error(`sms ${row.id} could not be sent`, error));
    }
    return claimed.length;
  }

  const sender = createRepeatingTask('sms sender', sendDueNow, { everyMs: deps.pollMs, logger, jobs: deps.jobs });

  const service = {
    /**
     * Queues messages to send; with `executor` inside the caller's transaction. A number that is not a
     * Kenyan mobile one is skipped (logged): nothing the caller does should fail for an SMS.
     */
    async enqueue(messages: SmsToSend[], executor: Executor = db): Promise<number> {
      const repo = createSmsRepository(executor);
      const promotionalPhones = messages.filter((message) => message.promotional).map((message) => normaliseKenyanPhone(message.phone) ?? '');
      const stopped = await repo.optedOut(promotionalPhones.filter(Boolean));
      const rows = messages.flatMap((message) => {
        const phone = normaliseKenyanPhone(message.phone);
        if (!phone) {
          logger.info(`sms for ${message.purpose} skipped: not a Kenyan mobile number`);
          return [];
        }
        if (message.promotional && stopped.has(phone)) {
          logger.info(`sms for ${message.purpose} skipped: the number replied STOP`);
          return [];
        }
        return [{ purpose: message.purpose, dedupeKey: message.dedupeKey ?? null, phone, message: message.message.slice(0, SMS_MAX_LENGTH) }];
      });
      const queued = await repo.enqueue(rows);
      if (queued > 0 && executor === db) sender.soon();
      return queued;
    },

    /** Sends what is due now (one look; a look already running is waited for instead). */
    sendDue: sender.runOnce,

    /**
     * Africa's Talking's bulk SMS opt-out notification (form fields senderId, phoneNumber): the number replied
     * STOP to our sender ID. Recorded so no promotional SMS goes to it again; a number that is not a Kenyan
     * mobile one is acknowledged and ignored (Africa's Talking retries what is not answered 200).
     */
    async optOut(secret: string, notification: { phoneNumber: string; senderId?: string | undefined }) {
      if (secret !== deps.callbackSecret) throw AppError.notFound('not_found', 'Not found.');
      const phone = normaliseKenyanPhone(notification.phoneNumber);
      if (!phone) {
        logger.info('sms opt-out for a number that is not a Kenyan mobile one: ignored');
        return { received: true as const };
      }
      if (await createSmsRepository(db).optOut(phone, notification.senderId ?? null)) logger.info(`sms opt-out recorded for ${phone}`);
      return { received: true as const };
    },

    /** A delivery report from Africa's Talking (form fields id, status, phoneNumber, failureReason …). */
    async deliveryReport(secret: string, report: { id: string; status: string; failureReason?: string | undefined }) {
      if (secret !== deps.callbackSecret) throw AppError.notFound('not_found', 'Not found.');
      const final = DELIVERED.has(report.status) ? 'delivered' : UNDELIVERED.has(report.status) ? 'undelivered' : undefined;
      const words = [report.status, report.failureReason].filter(Boolean).join(': ');
      const row = await createSmsRepository(db).delivery(report.id, final, words.slice(0, 200));
      if (!row) logger.info(`sms delivery report for unknown or settled message ${report.id}: ${words}`);
      return { received: true };
    },

    start: sender.start,
    stop: sender.stop,
  };
  return service;
}

export type SmsService = ReturnType<typeof createSmsService>;
