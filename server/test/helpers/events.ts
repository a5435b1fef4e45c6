import type { Database } from '../../src/db/database.js';
import { newId } from '../../src/db/ids.js';
import { events } from '../../src/db/schema.js';
import type { TestServer } from './test-server.js';

/** `YYYY-MM-DDTHH:mm` this many days from now (UTC), the form the event forms send. */
export function dayFromNow(days: number, time = '18:00'): string {
  const day = new Date(Date.now() + days * 24 * 60 * 60 * 1000);
  return `${day.toISOString().slice(0, 10)}T${time}`;
}

export function eventBody(overrides: Record<string, unknown> = {}) {
  return {
    title: 'Nairobi Jazz Night',
    description: 'Live jazz under the stars with local bands.',
    date: dayFromNow(10),
    location: 'Alliance Française, Nairobi',
    latitude: -1.2835,
    longitude: 36.8173,
    image: null,
    isPaid: false,
    ticketPrice: 0,
    ...overrides,
  };
}

/** Creates an event as `token`'s user, optionally approving it as admin; returns the event object. */
export async function createEvent(t: TestServer, token: string, overrides: Record<string, unknown> = {}, options: { approveWith?: string } = {}) {
  const res = await t.api('POST', '/api/events/addevnt', { token, body: eventBody(overrides) });
  if (res.status !== 201) throw new Error(`create event failed: ${res.status} ${JSON.stringify(res.body)}`);
  if (!options.approveWith) return res.body;
  const approved = await t.api('PUT', `/api/events/admin/approve/${res.body._id}`, { token: options.approveWith, body: {} });
  if (approved.status !== 200) throw new Error(`approve failed: ${approved.status} ${JSON.stringify(approved.body)}`);
  return approved.body;
}

/**
 * An event row written straight to the database (no API, no moderation), `days` from now (negative =
 * past), on the minute, approved unless told otherwise; returns its id. For tests about other modules.
 */
export async function insertEventRow(
  db: Database,
  input: {
    ownerId: string;
    days: number;
    status?: 'approved' | 'pending';
    title?: string;
    location?: string;
    price?: number | undefined;
    capacity?: number | null | undefined;
  },
): Promise<string> {
  const id = newId();
  const startsAt = new Date(Date.now() + input.days * 24 * 60 * 60 * 1000);
  startsAt.setUTCSeconds(0, 0);
  const price = input.price ?? 0;
  await db.insert(events).values({
    id,
    title: input.title ?? `Event ${id.slice(-6)}`,
    description: 'A test event',
    startsAt,
    location: input.location ?? 'KICC, Nairobi',
    latitude: -1.2921,
    longitude: 36.8219,
    status: input.status ?? 'approved',
    isPaid: price > 0,
    ticketPrice: price,
    capacity: input.capacity ?? null,
    userId: input.ownerId,
  });
  return id;
}
