import type { Database } from '../../db/database.js';
import { nowAsWallClock } from '../../lib/event-clock.js';
import type { Logger } from '../../lib/logger.js';
import { createRepeatingTask } from '../../lib/repeating-task.js';
import type { SmsService } from '../sms/index.js';
import { createPaymentsRepository } from './payments.repository.js';

export interface EventRemindersDeps {
  db: Database;
  sms: Pick<SmsService, 'enqueue'>;
  logger: Logger;
  publicUrl: string;
  /** How often each instance looks (0: never). */
  sweepMs: number;
}

/** Reminders go out once an event starts within this much time. */
const AHEAD_MS = 24 * 60 * 60 * 1000;
/** Someone who bought this recently has just had their ticket email: no reminder on top. */
const JUST_BOUGHT_MS = 60 * 60 * 1000;
const BATCH = 1000;

const when = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hour12: false });

/** The reminder text: short enough for one or two SMS, with where to find the ticket. */
export function reminderText(event: { title: string; startsAt: Date; location: string }, publicUrl: string): string {
  const title = event.title.length > 60 ? `${event.title.slice(0, 57)}...` : event.title;
  const location = event.location.length > 50 ? `${event.location.slice(0, 47)}...` : event.location;
  // Start times are kept as the Nairobi wall clock in UTC fields: formatting them in UTC reads them back as such.
  return `Tukio reminder: ${title} is on ${when.format(event.startsAt)} at ${location}. Your ticket: ${publicUrl}/profile`;
}

/**
 * A reminder SMS to each ticket holder who paid by M-Pesa (the phone they paid with) when their event
 * starts within 24 hours. Every instance looks; the outbox's key `reminder:<event>:<user>` makes it once
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
        message: reminderText(recipient, deps.publicUrl),
      })),
    );
    if (queued > 0) deps.logger.info(`event reminders: ${queued} SMS queued`);
    return queued;
  }

  const task = createRepeatingTask('event reminders', sweepNow, { everyMs: deps.sweepMs, logger: deps.logger, firstAfterMs: Math.min(deps.sweepMs, 5000) });
  return {
    /** One look: queues what is due (answers how many were new). */
    sweep: task.runOnce,
    start: task.start,
    stop: task.stop,
  };
}

export type EventReminders = ReturnType<typeof createEventReminders>;
