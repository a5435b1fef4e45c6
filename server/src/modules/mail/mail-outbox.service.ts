import type { Database, Executor } from '../../db/database.js';
import { createBatcher } from '@tukio/shared/node/batcher';
import type { JobQueue } from '../../lib/job-queue.js';
import type { Logger } from '../../lib/logger.js';
import type { Mail, MailAttachment, Mailer } from '../../lib/mailer.js';
import { createRepeatingTask } from '../../lib/repeating-task.js';
import { createMailOutboxRepository, type MailRow, type NewMail } from './mail-outbox.repository.js';

export interface MailOutboxDeps {
  db: Database;
  /** The transport (SMTP, or .eml files without SMTP_URL). */
  mailer: Mailer;
  logger: Logger;
  /** How often the sender looks for mail to send, a job per period (0: only right after mail is queued; tests call `sendDue`). */
  pollMs: number;
  /** Attempts before a mail that keeps failing is left `failed`. */
  maxAttempts: number;
  /** The first retry's delay; doubling with each attempt, at most one hour. */
  retryBaseMs: number;
  /** Sent and failed rows are deleted this many days after they were last touched. */
  keepDays: number;
  /** The sender's periodic looks run as jobs here (once per period across instances). */
  jobs?: JobQueue | undefined;
  /**
   * A mail left `sending` this long was being sent by an instance that died: it is sent again. The job
   * expiry, so the job retried after that death finds it.
   */
  staleSendingMs: number;
}

/** Turns a stored body of one kind into the mail to send (undefined: nothing to send any more). */
export type MailRenderer = (body: unknown) => Promise<Mail | undefined>;

/** A mail as JSON: attachment bytes in base64. */
type StoredMail = Omit<Mail, 'attachments'> & { attachments?: Array<Omit<MailAttachment, 'content'> & { content?: string; base64?: string }> };

const toStored = (mail: Mail): StoredMail => ({
  ...mail,
  attachments: mail.attachments?.map(({ content, ...rest }) => (Buffer.isBuffer(content) ? { ...rest, base64: content.toString('base64') } : { ...rest, content })),
});

const fromStored = (stored: StoredMail): Mail => ({
  ...stored,
  attachments: stored.attachments?.map(({ base64, content, ...rest }) => ({ ...rest, content: base64 === undefined ? (content ?? '') : Buffer.from(base64, 'base64') })),
});

/** Mails sent per look; the rest wait for the next one. */
const BATCH = 20;
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/**
 * Ticket and account email through an outbox in the database (docs/decisions/scale-out.md, "Mail"): the
 * row is written with the action (in its transaction when the caller passes one), a sender run as a job
 * claims due rows with SKIP LOCKED, sends each and marks it sent, and retries a failure with back-off.
 * A row is sent once; only a mail whose send was in flight when its instance died is sent again (its
 * SMTP transaction may have completed before the mark). Rows of a `kind` other than 'mail' are drawn at
 * send time by the renderer registered for it (the ticket mail's QR images).
 */
export function createMailOutbox(deps: MailOutboxDeps) {
  const { db, logger } = deps;
  const renderers = new Map<string, MailRenderer>([['mail', async (body) => fromStored(body as StoredMail)]]);
  /** Claimed rows this instance is sending now. */
  let sending = 0;
  /** Bumped by every "send soon": a look that claimed before the bump runs again once done. */
  let nudges = 0;
  let lastPrune = 0;
  // Mail queued outside a transaction in a burst (a sale's settlements) goes in one insert per batch.
  const insert = createBatcher((rows: NewMail[]) => createMailOutboxRepository(db).enqueue(rows), { maxBatch: 200 });

  const backoff = (attempts: number) => Math.min(HOUR, deps.retryBaseMs * 2 ** Math.max(0, attempts - 1));

  async function sendOne(row: MailRow) {
    const repo = createMailOutboxRepository(db);
    const render = renderers.get(row.kind);
    if (!render) return repo.failed(row, `no renderer for mail kind ${row.kind}`);
    try {
      const mail = await render(row.body);
      if (!mail) return repo.failed(row, 'nothing to send (recipient or event gone)');
      await deps.mailer.send(mail);
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      if (row.attempts < deps.maxAttempts) {
        logger.info(`mail ${row.id} (${row.purpose}) not sent, attempt ${row.attempts}: ${message}`);
        return repo.again(row, new Date(Date.now() + backoff(row.attempts)), message);
      }
      logger.error(`mail ${row.id} (${row.purpose}) to ${row.recipient} failed after ${row.attempts} attempts: ${message}`);
      return repo.failed(row, message);
    }
    await repo.sent(row);
  }

  async function sendDueNow(): Promise<number> {
    const seen = nudges;
    const now = new Date();
    const claimed = await db.transaction((tx) => createMailOutboxRepository(tx).claim(BATCH, now, new Date(now.getTime() - deps.staleSendingMs)));
    sending += claimed.length;
    try {
      for (const row of claimed) await sendOne(row);
    } finally {
      sending -= claimed.length;
    }
    if (now.getTime() - lastPrune > HOUR) {
      lastPrune = now.getTime();
      const pruned = await createMailOutboxRepository(db).prune(new Date(now.getTime() - deps.keepDays * DAY));
      if (pruned > 0) logger.info(`mail outbox: ${pruned} old rows pruned`);
    }
    // A full batch leaves more due, and mail queued since the claim is due too: the next look comes at
    // once rather than a period later.
    if (claimed.length === BATCH || nudges !== seen) sender.soon();
    return claimed.length;
  }

  const sender = createRepeatingTask('mail sender', sendDueNow, { everyMs: deps.pollMs, logger, jobs: deps.jobs });

  const outbox = {
    /** How rows of `kind` become a mail when they are sent; every instance registers the same ones. */
    render(kind: string, renderer: MailRenderer) {
      renderers.set(kind, renderer);
    },

    /**
     * Queues mails; with `executor`, in the caller's transaction (call `soon` after its commit, for a send
     * right away rather than at the next period's look). `body` is what the `kind`'s renderer takes.
     */
    async enqueue(rows: NewMail[], executor?: Executor): Promise<void> {
      if (rows.length === 0) return;
      if (executor) {
        await createMailOutboxRepository(executor).enqueue(rows);
        return;
      }
      await Promise.all(rows.map((row) => insert(row)));
      outbox.soon();
    },

    /** Mailer-shaped: queues a finished mail (sent by the job), resolved once its row is written. */
    send(mail: Mail, purpose = 'mail', executor?: Executor, dedupeKey?: string): Promise<void> {
      return outbox.enqueue([{ purpose, recipient: mail.to, kind: 'mail', body: toStored(mail), dedupeKey }], executor);
    },

    /** A look soon on this instance (mail was queued in a transaction that has now committed). */
    soon() {
      nudges += 1;
      sender.soon();
    },
    /** Sends what is due now (one look; a look already running is waited for instead). */
    sendDue: sender.runOnce,
    /** Claimed mails this instance is sending now, for the metrics (background_queue_depth). */
    depth: () => sending,
    counts: () => createMailOutboxRepository(db).countsByStatus(),

    start: sender.start,
    /**
     * A graceful stop: no more looks here, then what is due now is sent (up to `timeoutMs`), so a single
     * instance's restart does not hold mail back; whatever is left waits in the outbox for the next instance.
     */
    async stop(timeoutMs: number): Promise<boolean> {
      await sender.stop();
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const sent = await sender.runOnce().catch((error: unknown) => {
          logger.error('mail sender failed at shutdown', error);
          return -1;
        });
        if (sent <= 0) return sent === 0;
      }
      return false;
    },
  };
  return outbox;
}

export type MailOutbox = ReturnType<typeof createMailOutbox>;
