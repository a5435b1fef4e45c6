import type { Database } from '../../db/database.js';
import { nowAsWallClock } from '../../lib/event-clock.js';
import { translate, type Language } from '../../lib/i18n.js';
import type { JobQueue } from '../../lib/job-queue.js';
import type { Logger } from '../../lib/logger.js';
import { createRepeatingTask } from '../../lib/repeating-task.js';
import type { SmsService } from '../sms/index.js';
import { createPaymentsRepository } from './payments.repository.js';

export interface EventRemindersDeps {
  db: Database;
  sms: Pick<SmsService, 'enqueue'>;
  logger: Logger;
  publicUrl: string;
  /** How often to look (0: never). */
  sweepMs: number;
  /** The looks run as jobs here (once per period across instances). */
  jobs?: JobQueue | undefined;
}

/** Reminders go out once an event starts within this much time. */
const AHEAD_MS = 24 * 60 * 60 * 1000;
/** Someone who bought this recently has just had their ticket email: no reminder on top. */
const JUST_BOUGHT_MS = 60 * 60 * 1000;
const BATCH = 1000;

const whenOptions: Intl.DateTimeFormatOptions = { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hour12: false };
const when: Record<Language, Intl.DateTimeFormat> = { en: new Intl.DateTimeFormat('en-GB', whenOptions), sw: new Intl.DateTimeFormat('sw-KE', whenOptions) };

/** The reminder text in the holder's language: short enough for one or two SMS, with where to find the ticket. */
export function reminderText(event: { title: string; startsAt: Date; location: string }, publicUrl: string, language: Language = 'en'): string {
  const title = event.title.length > 60 ? `${event.title.slice(0, 57)}...` : event.title;
  const location = event.location.length > 50 ? `${event.location.slice(0, 47)}...` : event.location;
  // Start times are kept as the Nairobi wall clock in UTC fields: formatting them in UTC reads them back as such.
  return translate(language, 'tickets.reminderSms', { title, when: when[language].format(event.startsAt), location, url: `${publicUrl}/profile` });
}

/**
 * A reminder SMS to each ticket holder who paid by M-Pesa (the phone they paid with) when their event
 * starts within 24 hours. A job looks once per period; the outbox's key `reminder:<event>:<user>` makes it once
 * per holder and event however many instances look, and however often.
 */
export function createEventReminders(deps: EventRemindersDeps) {
  async function sweepNow(): Promise<number> {
    const now = new Date();
    const wall = nowAsWallClock(now);
    const recipients = await createPaymentsRepository(deps.db).reminderRecipients(wall, new Date(wall.getTime() + AHEAD_MS), new Date(now.getTime() - JUST_BOUGHT_MS), BATCH);
    if (recipients.length === 0) return 0;
    const queued = await deps.sms.enqueue(
      recipients.map((recipient) => ({
        purpose: 'event-reminder',
        dedupeKey: `reminder:${recipient.eventId}:${recipient.userId}`,
        phone: recipient.phone,
        message: reminderText(recipient, deps.publicUrl, recipient.language),
      })),
    );
    if (queued > 0) deps.logger.info(`event reminders: ${queued} SMS queued`);
    return queued;
  }

  const task = createRepeatingTask('event reminders', sweepNow, { everyMs: deps.sweepMs, logger: deps.logger, firstAfterMs: Math.min(deps.sweepMs, 5000), jobs: deps.jobs });
  return {
    /** One look: queues what is due (answers how many were new). */
    sweep: task.runOnce,
    start: task.start,
    stop: task.stop,
  };
}

export type EventReminders = ReturnType<typeof createEventReminders>;
