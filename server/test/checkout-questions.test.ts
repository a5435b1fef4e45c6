import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { unzipSync, strFromU8 } from 'fflate';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutAnswers, events, orders } from '../src/db/schema.js';
import { eraseAccount } from '../src/modules/data-rights/erase-account.js';
import { personalDataMap } from '../src/personal-data-map.js';
import { insertEventRow } from './helpers/events.js';
import { internalHeaders, receiptNo } from './helpers/refunds.js';
import { linkIn } from './helpers/smtp.js';
import { freePort, startTestServer, type TestServer } from './helpers/test-server.js';

/*
 * Checkout questions over HTTP (docs/decisions/checkout-questions.md): the organiser asks, the buyer answers in the
 * checkout (/pay/stkPush) before the prompt, the server refuses answers that break the questions with nothing
 * held, the answers show on the attendee list, its CSV and the gate list, the buyer changes them until the start,
 * and they are the buyer's personal data (export, erasure, retention).
 */

let t: TestServer;
let fake: http.Server;
const pushes: Array<{ orderId: string; amount: number; phone: string }> = [];
type Session = Awaited<ReturnType<TestServer['createUser']>>;
let organiser: Session;
let buyer: Session;
let stranger: Session;
let ipCounter = 0;
const freshIp = () => `10.88.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
let phoneCounter = 0;
const freshPhone = () => `2547${String(30_000_000 + phoneCounter++).slice(-8)}`;

beforeAll(async () => {
  // A stand-in payment service: every prompt is sent (the settle below pays it as M-Pesa's callback would).
  fake = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      if (req.url === '/internal/stk-push') {
        pushes.push(JSON.parse(text));
        const id = `ws_CO_${randomBytes(10).toString('hex')}`;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ checkoutRequestId: id, merchantRequestId: `mr-${id}`, customerMessage: 'Success. Request accepted for processing' }));
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => fake.listen(port, '127.0.0.1', resolve));
  t = await startTestServer({ PAYMENT_PORT: String((fake.address() as AddressInfo).port), TRUST_PROXY: 'true', STK_RATE_LIMIT_PER_IP: '1000', STK_RATE_LIMIT_PER_USER: '1000', STK_RATE_LIMIT_PER_USER_DAY: '1000', STK_RATE_LIMIT_PER_PHONE: '1000' });
  organiser = await t.createUser('qorganiser');
  buyer = await t.createUser('qbuyer');
  stranger = await t.createUser('qstranger');
}, 120_000);

afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => fake?.close(() => resolve()));
});

const paidEvent = (days = 10) => insertEventRow(t.db, { ownerId: organiser.user._id, days, price: 500, capacity: 50, title: 'Koroga Festival' });
const ask = (eventId: string, question: Record<string, unknown>, token = organiser.token) => t.api('POST', `/api/events/${eventId}/questions`, { token, body: question });

/** A checkout through /pay/stkPush as the browser makes it; the held order's id comes from the prompt asked for. */
async function checkout(eventId: string, body: Record<string, unknown>, token: string | undefined = buyer.token) {
  const phone = freshPhone();
  const before = pushes.length;
  const res = await t.api('POST', '/pay/stkPush', { token, headers: { 'x-forwarded-for': freshIp() }, body: { phone, Order_ID: `${eventId}_${phone}`, ...body } });
  return { res, phone, orderId: pushes.length > before ? pushes.at(-1)!.orderId : undefined, checkoutRequestId: res.body?.CheckoutRequestID as string | undefined };
}

async function settlePaid(paid: { checkoutRequestId?: string | undefined; phone: string; res: { body: { amount: number } } }) {
  const settled = await t.api('POST', '/api/internal/payments/settle', {
    headers: internalHeaders(t),
    body: { checkoutRequestId: paid.checkoutRequestId, merchantRequestId: `mr-${paid.checkoutRequestId}`, resultCode: 0, resultDesc: 'The service request is processed successfully.', amount: paid.res.body.amount, mpesaReceiptNumber: receiptNo('Q'), phone: paid.phone, source: 'callback' },
  });
  expect(settled.status, JSON.stringify(settled.body)).toBe(200);
}

const heldOrders = async (eventId: string) => t.db.select({ id: orders.id }).from(orders).where(eq(orders.eventId, eventId));

/** An event asking a required name per ticket, an optional T-shirt size per order, and the other kinds. */
async function eventWithQuestions() {
  const eventId = await paidEvent();
  const name = (await ask(eventId, { label: 'Name on ticket', kind: 'text', required: true, per: 'attendee' })).body;
  const size = (await ask(eventId, { label: 'T-shirt size', kind: 'choice', options: ['S', 'M', 'L'], required: false, per: 'order' })).body;
  const phone = (await ask(eventId, { label: 'Emergency phone', kind: 'phone', required: false })).body;
  const email = (await ask(eventId, { label: 'Work email', kind: 'email', required: false })).body;
  const veg = (await ask(eventId, { label: 'Vegetarian?', kind: 'yes_no', required: false })).body;
  return { eventId, name, size, phone, email, veg };
}

describe('organisers manage checkout questions', () => {
  it('adds, lists in order, edits, reorders and deletes; only the organiser (or an admin) may', async () => {
    const eventId = await paidEvent();
    const first = await ask(eventId, { label: 'Name on ticket', kind: 'text', required: true, per: 'attendee' });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({ label: 'Name on ticket', kind: 'text', required: true, per: 'attendee', options: [], ticketTypeId: null });
    const second = await ask(eventId, { label: 'Size', kind: 'choice', options: ['S', 'M'] });
    expect(second.status).toBe(201);
    expect((await t.api('GET', `/api/events/${eventId}/questions`)).body.map((q: { label: string }) => q.label)).toEqual(['Name on ticket', 'Size']);

    const edited = await t.api('PUT', `/api/events/${eventId}/questions/${second.body._id}`, { token: organiser.token, body: { label: 'T-shirt size', kind: 'choice', options: ['S', 'M', 'L'], required: true } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ label: 'T-shirt size', options: ['S', 'M', 'L'], required: true });
    const reordered = await t.api('POST', `/api/events/${eventId}/questions/reorder`, { token: organiser.token, body: { ids: [second.body._id, first.body._id] } });
    expect(reordered.body.map((q: { label: string }) => q.label)).toEqual(['T-shirt size', 'Name on ticket']);
    expect((await t.api('POST', `/api/events/${eventId}/questions/reorder`, { token: organiser.token, body: { ids: [first.body._id] } })).status).toBe(400);

    // Someone else: refused, and nothing changes.
    const refused = await ask(eventId, { label: 'Sneaky', kind: 'text' }, stranger.token);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('questions_not_organiser');
    expect((await t.api('DELETE', `/api/events/${eventId}/questions/${first.body._id}`, { token: stranger.token })).status).toBe(403);
    expect((await t.api('PUT', `/api/events/${eventId}/questions/${first.body._id}`, { token: buyer.token, body: { label: 'x', kind: 'text' } })).status).toBe(403);
    expect((await t.api('POST', `/api/events/${eventId}/questions`, { body: { label: 'Anonymous', kind: 'text' } })).status).toBe(401);
    const admin = await t.loginAdmin();
    expect((await ask(eventId, { label: 'From the admin', kind: 'yes_no' }, admin.token)).status).toBe(201);

    // Bad questions are named.
    const oneOption = await ask(eventId, { label: 'Size', kind: 'choice', options: ['S'] });
    expect(oneOption.status).toBe(400);
    expect((await ask(eventId, { label: '', kind: 'text' })).status).toBe(400);
    expect((await ask(eventId, { label: 'Kind?', kind: 'colour' })).status).toBe(400);
    expect((await ask(eventId, { label: 'Type?', kind: 'text', ticketTypeId: '0123456789abcdef01234567' })).body.code).toBe('question_invalid');

    expect((await t.api('DELETE', `/api/events/${eventId}/questions/${first.body._id}`, { token: organiser.token })).status).toBe(200);
    expect((await t.api('GET', `/api/events/${eventId}/questions`)).body.map((q: { label: string }) => q.label)).toEqual(['T-shirt size', 'From the admin']);
  });
});

describe('buyers answer in the checkout', () => {
  it('a per-attendee question is asked once per ticket, a per-order one once; answers are normalised and kept', async () => {
    const q = await eventWithQuestions();
    const paid = await checkout(q.eventId, {
      quantity: 2,
      answers: [
        { questionId: q.name._id, attendee: 0, value: ' Achieng Odhiambo ' },
        { questionId: q.name._id, attendee: 1, value: 'Baraka Mwangi' },
        { questionId: q.size._id, value: 'M' },
        { questionId: q.phone._id, value: '0712 345 678' },
        { questionId: q.email._id, value: 'Achieng@Example.COM' },
        { questionId: q.veg._id, value: true },
      ],
    });
    expect(paid.res.status, JSON.stringify(paid.res.body)).toBe(200);
    const kept = await t.db.select().from(checkoutAnswers).where(eq(checkoutAnswers.orderId, paid.orderId!));
    expect(kept.map((row) => [row.questionId, row.attendee, row.answer]).sort()).toEqual(
      [
        [q.name._id, 0, 'Achieng Odhiambo'],
        [q.name._id, 1, 'Baraka Mwangi'],
        [q.size._id, 0, 'M'],
        [q.phone._id, 0, '254712345678'],
        [q.email._id, 0, 'achieng@example.com'],
        [q.veg._id, 0, 'yes'],
      ].sort(),
    );
    expect(kept.every((row) => row.userId === buyer.user._id)).toBe(true);
  });

  it('refuses answers that break the questions with a 400 naming the question, and holds nothing', async () => {
    const q = await eventWithQuestions();
    const cases: Array<[string, unknown[]]> = [
      // The second ticket has no name.
      ['answer_required', [{ questionId: q.name._id, attendee: 0, value: 'Achieng' }]],
      ['answer_required', [{ questionId: q.name._id, attendee: 0, value: 'Achieng' }, { questionId: q.name._id, attendee: 1, value: '   ' }]],
      ['answer_not_an_option', [{ questionId: q.name._id, attendee: 0, value: 'A' }, { questionId: q.name._id, attendee: 1, value: 'B' }, { questionId: q.size._id, value: 'XXL' }]],
      ['answer_invalid_phone', [{ questionId: q.name._id, attendee: 0, value: 'A' }, { questionId: q.name._id, attendee: 1, value: 'B' }, { questionId: q.phone._id, value: '12345' }]],
      ['answer_invalid_email', [{ questionId: q.name._id, attendee: 0, value: 'A' }, { questionId: q.name._id, attendee: 1, value: 'B' }, { questionId: q.email._id, value: 'not-an-email' }]],
      ['answer_invalid_yes_no', [{ questionId: q.name._id, attendee: 0, value: 'A' }, { questionId: q.name._id, attendee: 1, value: 'B' }, { questionId: q.veg._id, value: 'maybe' }]],
      ['answer_wrong_attendee', [{ questionId: q.name._id, attendee: 0, value: 'A' }, { questionId: q.name._id, attendee: 1, value: 'B' }, { questionId: q.name._id, attendee: 2, value: 'C' }]],
      ['answer_unknown_question', [{ questionId: '0123456789abcdef01234567', value: 'A' }]],
      ['validation_failed', ['not an answer'] as unknown[]],
    ];
    for (const [code, answers] of cases) {
      const { res } = await checkout(q.eventId, { quantity: 2, answers });
      expect(res.status, `${code}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.code, JSON.stringify(res.body)).toBe(code);
      expect(res.body.message).toMatch(/^Failed to initiate payment: /);
    }
    const required = await checkout(q.eventId, { quantity: 2, answers: [{ questionId: q.name._id, attendee: 0, value: 'Achieng' }] });
    expect(required.res.body.params).toEqual({ question: 'Name on ticket' });
    expect(await heldOrders(q.eventId)).toEqual([]);
  });

  it('a question of one ticket type is asked only of orders with that type', async () => {
    const eventId = await paidEvent();
    const types = await t.api('PUT', `/api/events/${eventId}/ticket-types`, { token: organiser.token, body: { ticketTypes: [{ name: 'Regular', price: 500 }, { name: 'VIP', price: 2000 }] } });
    expect(types.status, JSON.stringify(types.body)).toBe(200);
    const [regular, vip] = types.body.ticketTypes as Array<{ _id: string }>;
    const diet = (await ask(eventId, { label: 'Dietary needs (VIP dinner)', kind: 'text', required: true, per: 'attendee', ticketTypeId: vip!._id })).body;
    // Regular only: not asked (answering it is an unknown question).
    expect((await checkout(eventId, { items: [{ typeId: regular!._id, quantity: 2 }], answers: [] })).res.status).toBe(200);
    expect((await checkout(eventId, { items: [{ typeId: regular!._id, quantity: 1 }], answers: [{ questionId: diet._id, value: 'none' }] })).res.body.code).toBe('answer_unknown_question');
    // One VIP among two tickets: asked once.
    expect((await checkout(eventId, { items: [{ typeId: regular!._id, quantity: 1 }, { typeId: vip!._id, quantity: 1 }], answers: [] })).res.body.code).toBe('answer_required');
    const mixed = await checkout(eventId, { items: [{ typeId: regular!._id, quantity: 1 }, { typeId: vip!._id, quantity: 1 }], answers: [{ questionId: diet._id, attendee: 0, value: 'Vegan' }] });
    expect(mixed.res.status).toBe(200);
  });

  it('an order on an event without questions works as before; the original stkPush without answers skips them', async () => {
    const plain = await paidEvent();
    const before = await checkout(plain, { quantity: 1 });
    expect(before.res.status).toBe(200);
    expect(before.res.body).toMatchObject({ ResponseCode: '0', amount: 500, quantity: 1 });
    const q = await eventWithQuestions();
    // A client that knows nothing of questions sends no `answers`: the order is held, answers come later from the buyer's tickets.
    const legacy = await checkout(q.eventId, { quantity: 1 });
    expect(legacy.res.status, JSON.stringify(legacy.res.body)).toBe(200);
    const view = await t.api('GET', `/api/me/orders/${legacy.orderId}/answers`, { token: buyer.token });
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ editable: true, answers: [] });
    expect(view.body.questions.find((question: { _id: string }) => question._id === q.name._id)).toMatchObject({ times: 1 });
  });

  it('a guest (no account) answers too, as the shadow account of the phone', async () => {
    const q = await eventWithQuestions();
    const guest = await checkout(q.eventId, { quantity: 1, answers: [{ questionId: q.name._id, value: 'Wanjiru Guest' }] }, undefined);
    expect(guest.res.status, JSON.stringify(guest.res.body)).toBe(200);
    const [row] = await t.db.select().from(checkoutAnswers).where(eq(checkoutAnswers.orderId, guest.orderId!));
    const [order] = await t.db.select().from(orders).where(eq(orders.id, guest.orderId!));
    expect(row).toMatchObject({ answer: 'Wanjiru Guest', userId: order!.userId });
    expect((await checkout(q.eventId, { quantity: 1, answers: [] }, undefined)).res.body.code).toBe('answer_required');
  });
});

describe('organisers see the answers', () => {
  it('on the attendee list, its CSV and the gate list, per ticket', async () => {
    const q = await eventWithQuestions();
    const paid = await checkout(q.eventId, {
      quantity: 2,
      answers: [
        { questionId: q.name._id, attendee: 0, value: 'Achieng Odhiambo' },
        { questionId: q.name._id, attendee: 1, value: 'Baraka Mwangi' },
        { questionId: q.size._id, value: 'L' },
      ],
    });
    expect(paid.res.status).toBe(200);
    await settlePaid(paid);
    const list = await t.api('GET', `/api/events/${q.eventId}/attendees`, { token: organiser.token });
    expect(list.status).toBe(200);
    const names = (list.body as Array<{ answers: Array<{ label: string; answer: string }> }>).map((attendee) => attendee.answers.find((answer) => answer.label === 'Name on ticket')?.answer).sort();
    expect(names).toEqual(['Achieng Odhiambo', 'Baraka Mwangi']);
    expect(list.body.every((attendee: { answers: Array<{ label: string; answer: string }> }) => attendee.answers.some((answer) => answer.label === 'T-shirt size' && answer.answer === 'L'))).toBe(true);

    const page = await t.api('GET', `/api/events/${q.eventId}/attendees/paged`, { token: organiser.token });
    expect(page.body.items[0].answers.length).toBeGreaterThan(0);

    const csv = await fetch(`${t.url}/api/events/${q.eventId}/attendees?format=csv`, { headers: { authorization: `Bearer ${organiser.token}` } });
    const text = await csv.text();
    const [header, ...rows] = text.trim().split(/\r?\n/);
    expect(header).toContain('"Name on ticket","T-shirt size","Emergency phone","Work email","Vegetarian?"');
    expect(rows.join('\n')).toContain('"Achieng Odhiambo","L"');
    expect(rows.join('\n')).toContain('"Baraka Mwangi","L"');

    const gate = await t.api('GET', `/api/events/${q.eventId}/gate-list`, { token: organiser.token });
    expect(gate.body.tickets.flatMap((ticket: { answers: Array<{ answer: string }> }) => ticket.answers.map((answer) => answer.answer)).sort()).toEqual(['Achieng Odhiambo', 'Baraka Mwangi', 'L', 'L']);

    // An event without questions: the list keeps its shape.
    const plain = await paidEvent();
    const none = await t.api('GET', `/api/events/${plain}/attendees`, { token: organiser.token });
    expect(none.body).toEqual([]);
    expect((await t.api('GET', `/api/events/${q.eventId}/attendees`, { token: stranger.token })).status).toBe(403);
  });
});

describe('buyers change their answers until the event starts', () => {
  it('the buyer edits (checked as at checkout); anyone else is refused; after the start 409', async () => {
    const q = await eventWithQuestions();
    const paid = await checkout(q.eventId, { quantity: 1, answers: [{ questionId: q.name._id, value: 'Achieng' }] });
    const path = `/api/me/orders/${paid.orderId}/answers`;
    const changed = await t.api('PUT', path, { token: buyer.token, body: { answers: [{ questionId: q.name._id, value: 'Achieng Odhiambo' }, { questionId: q.size._id, value: 'S' }] } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.answers).toEqual(expect.arrayContaining([{ questionId: q.name._id, attendee: 0, value: 'Achieng Odhiambo' }, { questionId: q.size._id, attendee: 0, value: 'S' }]));
    const missing = await t.api('PUT', path, { token: buyer.token, body: { answers: [{ questionId: q.size._id, value: 'S' }] } });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('answer_required');
    expect((await t.api('PUT', path, { token: buyer.token, body: { answers: [{ questionId: q.name._id, value: 'A' }, { questionId: q.size._id, value: 'XL' }] } })).body.code).toBe('answer_not_an_option');
    for (const other of [stranger, organiser]) {
      expect((await t.api('GET', path, { token: other.token })).status).toBe(403);
      expect((await t.api('PUT', path, { token: other.token, body: { answers: [{ questionId: q.name._id, value: 'Hijack' }] } })).status).toBe(403);
    }
    expect((await t.api('GET', path)).status).toBe(401);
    const kept = await t.db.select().from(checkoutAnswers).where(eq(checkoutAnswers.orderId, paid.orderId!));
    expect(kept.map((row) => row.answer).sort()).toEqual(['Achieng Odhiambo', 'S']);

    // The event starts: answers are fixed.
    await t.db.update(events).set({ startsAt: new Date(Date.now() - 60 * 60 * 1000) }).where(eq(events.id, q.eventId));
    expect((await t.api('GET', path, { token: buyer.token })).body.editable).toBe(false);
    const late = await t.api('PUT', path, { token: buyer.token, body: { answers: [{ questionId: q.name._id, value: 'Too late' }] } });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('answers_locked');
  });
});

describe('answers are the buyer’s personal data', () => {
  it('are in the data export, erased with the account, and at the event’s retention', async () => {
    const q = await eventWithQuestions();
    const exporter = await t.createUser('qexporter');
    const paid = await checkout(q.eventId, { quantity: 1, answers: [{ questionId: q.name._id, value: 'Exported Name' }] }, exporter.token);
    expect(paid.res.status).toBe(200);

    const requested = await t.api('POST', '/api/me/data-export', { token: exporter.token });
    expect(requested.status).toBe(202);
    const mail = await t.smtp.waitFor(exporter.user.email, /Tukio data is ready/, 20_000);
    const archive = await fetch(`${t.url}/api/me/data-export/${linkIn(mail, 'my-data')}`, { headers: { authorization: `Bearer ${exporter.token}` } });
    const files = Object.fromEntries(Object.entries(unzipSync(new Uint8Array(await archive.arrayBuffer()))).map(([name, content]) => [name, strFromU8(content)]));
    const rows = (JSON.parse(files['json/checkout_answers.json']!) as { rows: Array<Record<string, unknown>> }).rows;
    expect(rows).toEqual([expect.objectContaining({ answer: 'Exported Name', order_id: paid.orderId })]);

    await t.db.transaction((tx) => eraseAccount(tx, personalDataMap, exporter.user._id));
    expect(await t.db.select().from(checkoutAnswers).where(eq(checkoutAnswers.userId, exporter.user._id))).toEqual([]);

    // Retention: the event's answers are emptied once it is shredded.
    const kept = await checkout(q.eventId, { quantity: 1, answers: [{ questionId: q.name._id, value: 'Retained Name' }] });
    await settlePaid(kept);
    await t.db.update(events).set({ startsAt: new Date(Date.now() - 400 * 24 * 60 * 60 * 1000) }).where(eq(events.id, q.eventId));
    const admin = await t.loginAdmin();
    await t.services.retention.shredEvent(q.eventId, 'test', { id: admin.user._id, role: 'admin' } as never);
    const after = await t.db.select().from(checkoutAnswers).where(eq(checkoutAnswers.eventId, q.eventId));
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((row) => row.answer === '')).toBe(true);
  });
});
