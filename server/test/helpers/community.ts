import { randomBytes } from 'node:crypto';
import { newId, SYSTEM_USER_ID } from '../../src/db/ids.js';
import { events, tickets } from '../../src/db/schema.js';
import type { TestServer } from './test-server.js';

const DAY = 24 * 60 * 60 * 1000;

/**
 * Inserts an approved event straight into the database (the events API is tested on its own),
 * dated `daysFromNow` days away: negative for one that has already happened.
 */
export async function insertEvent(t: TestServer, options: { daysFromNow: number; title?: string; ownerId?: string }): Promise<string> {
  const id = newId();
  await t.db.insert(events).values({
    id,
    title: options.title ?? `Event ${id.slice(-6)}`,
    description: 'A test event',
    startsAt: new Date(Date.now() + options.daysFromNow * DAY),
    location: 'Nairobi',
    status: 'approved',
    userId: options.ownerId ?? SYSTEM_USER_ID,
  });
  return id;
}

/** Makes a user "registered" for an event the way the tickets module does: by holding a ticket. */
export async function giveTicket(t: TestServer, eventId: string, userId: string): Promise<void> {
  await t.db.insert(tickets).values({ id: newId(), eventId, userId, code: `test-${randomBytes(12).toString('hex')}` });
}
