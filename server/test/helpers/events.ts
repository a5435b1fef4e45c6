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
