import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, tickets } from '../../server/src/db/schema.js';
import { startStack, type Stack } from './helpers/stack.js';

/**
 * Many buyers race for few seats through the whole flow (payment service -> API server -> the
 * simulator's callbacks). On PostgreSQL (TEST_DB=postgres) it is 300 buyers for 50 seats with
 * real concurrent transactions; on the embedded PGlite a smaller race of 60 for 10.
 */
const onPostgres = process.env.TEST_DB === 'postgres';
const BUYERS = onPostgres ? 300 : 60;
const SEATS = onPostgres ? 50 : 10;

let s: Stack;
beforeAll(async () => {
  // The race for the seats themselves: every buyer reaches the hold at once. The waiting room, which
  // would queue most of them in front of it, has its own tests (waiting-room.test.ts).
  s = await startStack({ serverEnv: { WAITING_ROOM_BURST: '100000' }, paymentEnv: { SIMULATOR_DELAY_MS: '100' } });
});
afterAll(async () => {
  await s?.close();
});

describe(`${BUYERS} buyers race for ${SEATS} seats (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('sells exactly the seats there are, with no server errors', async () => {
    const organiser = await s.quickUser('raceorganiser');
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 1000, capacity: SEATS });
    const buyers = await Promise.all(Array.from({ length: BUYERS }, (_, i) => s.quickUser(`racer${i}`)));

    const pushes = await Promise.all(buyers.map((buyer, i) => s.stkPush(buyer.token, eventId, `25479${String(i).padStart(7, '0')}`)));
    const statuses = pushes.map((push) => push.status);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    const accepted = pushes.filter((push) => push.status === 200);
    expect(accepted).toHaveLength(SEATS);
    for (const refused of pushes.filter((push) => push.status !== 200)) {
      expect(refused.status).toBe(409);
      expect(refused.body.msg).toBe('Failed to initiate payment: Sorry, this event is sold out.');
    }

    const settled = await Promise.all(
      pushes.map((push, i) => (push.status === 200 ? s.waitSettled(buyers[i]!.token, push.body.CheckoutRequestID, 30_000) : undefined)),
    );
    for (const result of settled.filter(Boolean)) expect(result!.body).toMatchObject({ success: true, orderStatus: 'paid' });

    const issued = await s.server.db.select().from(tickets).where(eq(tickets.eventId, eventId));
    expect(issued).toHaveLength(SEATS);
    expect(new Set(issued.map((ticket) => ticket.userId)).size).toBe(SEATS);
    const paid = await s.server.db.select().from(orders).where(eq(orders.eventId, eventId));
    expect(paid.filter((order) => order.status === 'paid')).toHaveLength(SEATS);

    // Once sold out, the next buyer is told so.
    const late = await s.quickUser('toolate');
    const after = await s.stkPush(late.token, eventId, '254798888888');
    expect(after.status).toBe(409);
  });
});
