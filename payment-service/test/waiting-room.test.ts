import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStack, type Stack } from './helpers/stack.js';

/**
 * The waiting room seen through the buyer-facing checkout: a stkPush that is not the buyer's turn yet
 * answers 429 `waiting_room_queued` with the buyer's place (no prompt, no seats held), and the same
 * push goes through once GET /api/events/:id/queue says it is their turn.
 */
let s: Stack;
beforeAll(async () => {
  // One buyer at once, then one every 2 s.
  s = await startStack({ serverEnv: { WAITING_ROOM_RATE: '0.5', WAITING_ROOM_BURST: '1', WAITING_ROOM_ADAPTIVE: 'false' } });
});
afterAll(async () => {
  await s?.close();
});

describe('a push while others wait in the line', () => {
  it('is refused with the place kept, then sent once it is the buyer’s turn', async () => {
    const organiser = await s.quickUser('queueorganiser');
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 1500, capacity: 20 });
    const first = await s.quickUser('queuefirst');
    const second = await s.quickUser('queuesecond');

    expect((await s.stkPush(first.token, eventId, '254790000101')).status).toBe(200);
    const queued = await s.stkPush(second.token, eventId, '254790000102');
    expect(queued.status).toBe(429);
    expect(queued.body).toMatchObject({ code: 'waiting_room_queued', params: { position: 1 } });
    expect(queued.body.msg).toMatch(/^Failed to initiate payment: Many people are buying tickets for this event right now\. You are number 1 in the line/);
    expect(queued.body.CheckoutRequestID).toBeUndefined();

    await vi.waitFor(
      async () => {
        const place = await s.server.api('GET', `/api/events/${eventId}/queue`, { token: second.token });
        expect(place.body).toMatchObject({ inLine: true, admitted: true });
      },
      { timeout: 15_000, interval: 250 },
    );
    const admitted = await s.stkPush(second.token, eventId, '254790000102');
    expect(admitted.status).toBe(200);
    expect(admitted.body.CheckoutRequestID).toBeTruthy();
  });
});
