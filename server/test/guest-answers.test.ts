import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutAnswers, events } from '../src/db/schema.js';
import { insertEventRow } from './helpers/events.js';
import { internalHeaders, payFor } from './helpers/refunds.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * A guest buyer changes their checkout answers from the page their SMS link opens (/t/<token>), until the event
 * starts, under the same server rules as a member's on /profile (docs/decisions/checkout-questions.md).
 */

type Session = Awaited<ReturnType<TestServer['createUser']>>;

let t: TestServer;
let organiser: Session;

beforeAll(async () => {
  t = await startTestServer();
  organiser = await t.createUser('gaorganiser');
}, 240_000);
afterAll(async () => {
  await t?.close();
});

const ask = (eventId: string, body: Record<string, unknown>) => t.api('POST', `/api/events/${eventId}/questions`, { token: organiser.token, body });

describe('a guest edits their checkout answers', () => {
  it('through the SMS link: read, refused when it breaks a rule, saved when valid; a forged link opens nothing; fixed once the event starts', async () => {
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 10, price: 700, capacity: 50, title: 'Sauti Sol tribute' });
    const name = (await ask(eventId, { label: 'Name on ticket', kind: 'text', required: true, per: 'attendee' })).body as { _id: string };
    const size = (await ask(eventId, { label: 'T-shirt size', kind: 'choice', options: ['S', 'M', 'L'] })).body as { _id: string };
    const paid = await payFor(t, undefined, eventId, { phone: '254711000051', quantity: 2 });
    const status = await t.api('GET', `/api/internal/payments/guest-status/${paid.checkoutRequestId}`, { headers: internalHeaders(t) });
    const token = status.body.ticketToken as string;
    expect(token).toBeTruthy();
    const path = `/api/guest-tickets/${token}/answers`;

    const view = await t.api('GET', path);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ orderId: paid.orderId, eventId, editable: true, answers: [] });
    expect(view.body.questions.map((question: { _id: string; times: number }) => [question._id, question.times])).toEqual([
      [name._id, 2],
      [size._id, 1],
    ]);

    // The checkout's rules: a required answer missing, an unknown option.
    const missing = await t.api('PUT', path, { body: { answers: [{ questionId: name._id, attendee: 0, value: 'Wanjiru' }] } });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('answer_required');
    const wrong = await t.api('PUT', path, { body: { answers: [{ questionId: name._id, attendee: 0, value: 'Wanjiru' }, { questionId: name._id, attendee: 1, value: 'Otieno' }, { questionId: size._id, value: 'XXL' }] } });
    expect(wrong.body.code).toBe('answer_not_an_option');
    expect(await t.db.select().from(checkoutAnswers).where(eq(checkoutAnswers.orderId, paid.orderId))).toEqual([]);

    const saved = await t.api('PUT', path, { body: { answers: [{ questionId: name._id, attendee: 0, value: 'Wanjiru' }, { questionId: name._id, attendee: 1, value: 'Otieno' }, { questionId: size._id, value: 'M' }] } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.answers).toEqual(
      expect.arrayContaining([
        { questionId: name._id, attendee: 0, value: 'Wanjiru' },
        { questionId: name._id, attendee: 1, value: 'Otieno' },
        { questionId: size._id, attendee: 0, value: 'M' },
      ]),
    );
    // The organiser's attendee list shows the new answers.
    const attendees = await t.api('GET', `/api/events/${eventId}/attendees`, { token: organiser.token });
    const names = (attendees.body as Array<{ answers: Array<{ label: string; answer: string }> }>).map((row) => row.answers.find((answer) => answer.label === 'Name on ticket')?.answer).sort();
    expect(names).toEqual(['Otieno', 'Wanjiru']);

    // Only the signed link opens it.
    expect((await t.api('GET', `/api/guest-tickets/${paid.orderId}.AAAAAAAAAAAAAAAAAAAAAA/answers`)).status).toBe(404);
    expect((await t.api('PUT', `/api/guest-tickets/${paid.orderId}/answers`, { body: { answers: [] } })).status).toBe(404);

    // The event starts: the answers are fixed.
    await t.db.update(events).set({ startsAt: new Date(Date.now() - 60 * 60 * 1000) }).where(eq(events.id, eventId));
    expect((await t.api('GET', path)).body.editable).toBe(false);
    const late = await t.api('PUT', path, { body: { answers: [{ questionId: name._id, attendee: 0, value: 'Too late' }, { questionId: name._id, attendee: 1, value: 'Too late' }] } });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('answers_locked');
  });

  it("a member's order is not a guest's: its answers are not open to a link", async () => {
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 10, price: 700, capacity: 50 });
    const member = await t.createUser('gamember');
    const paid = await payFor(t, member.token, eventId, { phone: '254711000052' });
    expect((await t.api('GET', `/api/internal/payments/guest-status/${paid.checkoutRequestId}`, { headers: internalHeaders(t) })).status).toBe(404);
    expect((await t.api('GET', `/api/guest-tickets/${paid.orderId}/answers`)).status).toBe(404);
  });
});
