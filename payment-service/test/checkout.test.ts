import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MPESA_TRANSACTION_MAX } from '@tukio/shared/limits';
import { orders, payments, tickets } from '../../server/src/db/schema.js';
import { INTERNAL_KEY, startStack, successCallback, type Stack } from './helpers/stack.js';

let s: Stack;
let organiser: Awaited<ReturnType<Stack['quickUser']>>;
beforeAll(async () => {
  s = await startStack();
  organiser = await s.quickUser('organiser');
});
afterAll(async () => {
  await s?.close();
});

let phoneCounter = 0;
/** A fresh ordinary (always paying) number per push, so prompts never collide. */
const freshPhone = () => `2547${String(10_000_000 + phoneCounter++).slice(-8)}`;

async function ticketCount(eventId: string) {
  return (await s.server.db.select().from(tickets).where(eq(tickets.eventId, eventId))).length;
}

describe('paid checkout through the payment service and the Daraja simulator', () => {
  it('charges price x quantity (the client amount is ignored), issues tickets once confirmed and mails them', async () => {
    const buyer = await s.quickUser('achieng');
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 750, capacity: 10, title: 'Sauti Sol Live' });
    const push = await s.stkPush(buyer.token, eventId, '254712345678', { quantity: 2, amount: 1 });
    expect(push.status).toBe(200);
    expect(push.body).toMatchObject({ ResponseCode: '0', amount: 1500, quantity: 2 });
    expect(push.body.CheckoutRequestID).toMatch(/^ws_CO_/);
    expect(push.body.CustomerMessage).toBeTruthy();
    const prompt = await s.prompt(push.body.CheckoutRequestID);
    expect(prompt).toMatchObject({ amount: 1500, phone: '254712345678' });

    const settled = await s.waitSettled(buyer.token, push.body.CheckoutRequestID);
    expect(settled.status).toBe(200);
    expect(settled.body).toMatchObject({ success: true, status: 'success', orderStatus: 'paid', amount: 1500, quantity: 2 });
    expect(settled.body.resultdDesc).toBe(settled.body.resultDesc);
    expect(settled.body.mpesaReceiptNumber).toMatch(/^[A-Z0-9]{10}$/);

    const mine = await s.api('GET', '/api/tickets/mine', { token: buyer.token });
    expect(mine.status).toBe(200);
    expect(mine.body).toHaveLength(2);
    expect(mine.body[0]).toMatchObject({ event: { _id: eventId, title: 'Sauti Sol Live', location: 'KICC, Nairobi' } });
    expect(mine.body[0].code).toMatch(/^TK1\./);

    const registered = await s.api('POST', `/api/events/register/${eventId}`, { token: buyer.token, body: { userId: buyer.user._id } });
    expect(registered.status).toBe(200);
    expect(registered.body).toEqual({ message: 'Registered successfully' });

    const history = await s.api('GET', `/api/transactions/${buyer.user._id}`, { token: buyer.token });
    expect(history.status).toBe(200);
    expect(history.body[0]).toMatchObject({
      name: 'Sauti Sol Live',
      eventId,
      checkoutRequestId: push.body.CheckoutRequestID,
      phoneNumber: '254712345678',
      amount: 1500,
      paymentStatus: 'success',
      mpesaReceiptNumber: settled.body.mpesaReceiptNumber,
    });

    const mail = await s.server.smtp.waitFor('achieng@example.com', /Your Tukio tickets: Sauti Sol Live/);
    expect(mail.text).toContain(mine.body[0].code);
    const ics = mail.attachments.find((a) => a.filename === 'event.ics');
    expect(ics?.contentType).toMatch(/text\/calendar/);
    expect(ics?.content.toString()).toContain('SUMMARY:Sauti Sol Live');
  });

  it.each([
    ['254700000001', 'cancelled', 1032, /cancelled/i],
    ['254700000002', 'failed', 1, /balance is insufficient/i],
    ['254700000003', 'failed', 1037, /cannot be reached/i],
  ])('test number %s ends %s (ResultCode %d), issues nothing and releases the seat', async (phone, status, code, desc) => {
    const buyer = await s.quickUser(`buyer${phone.slice(-1)}`);
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 100, capacity: 1 });
    const push = await s.stkPush(buyer.token, eventId, phone);
    expect(push.status).toBe(200);
    const settled = await s.waitSettled(buyer.token, push.body.CheckoutRequestID);
    // resultCode lets the dialog say the outcome in the buyer's language (resultDesc is English).
    expect(settled.body).toMatchObject({ success: false, status, resultCode: code });
    expect(settled.body.resultDesc).toMatch(/^Payment failed or cancelled/);
    expect(settled.body.resultDesc).toMatch(desc);
    const [row] = await s.server.db.select().from(payments).where(eq(payments.checkoutRequestId, push.body.CheckoutRequestID));
    expect(row?.resultCode).toBe(code);
    expect(await ticketCount(eventId)).toBe(0);
    // The one seat is free again for the next buyer.
    const next = await s.quickUser(`next${phone.slice(-1)}`);
    const retry = await s.stkPush(next.token, eventId, freshPhone());
    expect(retry.status).toBe(200);
    expect((await s.waitSettled(next.token, retry.body.CheckoutRequestID)).body.success).toBe(true);
    // Failed attempts appear in the history too.
    const history = await s.api('GET', `/api/transactions/${buyer.user._id}`, { token: buyer.token });
    expect(history.body[0]).toMatchObject({ paymentStatus: status, checkoutRequestId: push.body.CheckoutRequestID });
  });

  it('254700000004: the callback never arrives; the reconciler settles it from an STK query', async () => {
    const buyer = await s.quickUser('silentbuyer');
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 200 });
    const push = await s.stkPush(buyer.token, eventId, '254700000004');
    const done = await s.waitPromptDone(push.body.CheckoutRequestID);
    expect(done.callbackSent).toBe(false);
    expect((await s.confirm(buyer.token, push.body.CheckoutRequestID)).body).toMatchObject({
      success: false,
      status: 'pending',
      resultDesc: expect.stringMatching(/^Payment is still pending/),
    });
    const pass = await s.pay.reconciler.runOnce();
    expect(pass.settled).toBeGreaterThanOrEqual(1);
    const settled = await s.confirm(buyer.token, push.body.CheckoutRequestID);
    expect(settled.body).toMatchObject({ success: true, status: 'success', orderStatus: 'paid' });
    expect(await ticketCount(eventId)).toBe(1);
  });

  it('254700000005 waits for a person on the simulator phone page; 1001 while it is pending', async () => {
    const buyer = await s.quickUser('manualbuyer');
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 300 });
    const push = await s.stkPush(buyer.token, eventId, '254700000005');
    expect(push.status).toBe(200);

    const again = await s.stkPush(buyer.token, eventId, '254700000005');
    expect(again.status).toBe(409);
    expect(again.body.msg).toMatch(/^Failed to initiate payment: a prompt is already pending on this phone/);
    expect(again.body.message).toBe(again.body.msg);

    // The buyer's own link to the simulated phone, on this service.
    expect(push.body.simulatorUrl).toMatch(new RegExp(`^${s.sim.url}/simulator/prompt/[\\w-]{32}$`));
    const page = await fetch(push.body.simulatorUrl, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toContain('254700000005');
    expect(html).toContain('KSh 300');
    expect(html).not.toMatch(/<script>[^<]/);
    // Every prompt at once: the developer's page, behind the simulator key.
    const list = await s.simApi('GET', '/simulator', { headers: s.simulatorKey });
    expect(list.status).toBe(200);
    expect(list.body).toContain('KSh 300');

    // A prompt that answers by itself (after SIMULATOR_DELAY_MS), pushed after this one, has been answered:
    // had this one been answered without a person, it would have been too.
    const bystander = await s.quickUser('bystander');
    const automatic = await s.stkPush(bystander.token, eventId, '254711000140');
    await s.waitPromptDone(automatic.body.CheckoutRequestID);
    expect((await s.confirm(buyer.token, push.body.CheckoutRequestID)).body.status).toBe('pending');
    const badPin = await fetch(`${push.body.simulatorUrl}/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pin: '12' }) });
    expect(badPin.status).toBe(400);
    // The page's own form: urlencoded, answered with a redirect back to the prompt's page.
    const paid = await fetch(`${push.body.simulatorUrl}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'pin=4321',
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(new URL(push.body.simulatorUrl).pathname);
    const settled = await s.waitSettled(buyer.token, push.body.CheckoutRequestID);
    expect(settled.body).toMatchObject({ success: true, status: 'success' });
  });

  it('refuses bad input with a clear "Failed to initiate payment" reason', async () => {
    const buyer = await s.quickUser('carefulbuyer');
    const paid = await s.createEvent({ ownerId: organiser.user._id, price: 100 });
    const free = await s.createEvent({ ownerId: organiser.user._id, price: 0 });
    const past = await s.createEvent({ ownerId: organiser.user._id, price: 100, daysAhead: -2 });
    const pending = await s.createEvent({ ownerId: organiser.user._id, price: 100, status: 'pending' });
    const cases: Array<[Record<string, unknown>, string | undefined, number, RegExp]> = [
      [{ phone: '12345', Order_ID: `${paid}_12345` }, buyer.token, 400, /254 followed by 9 digits/],
      [{ phone: '254712345678', Order_ID: 'nope' }, buyer.token, 400, /Order_ID/],
      [{ phone: '254712345678', Order_ID: `${paid}_254712345678`, quantity: 11 }, buyer.token, 400, /between 1 and 10/],
      [{ phone: '254712345678', Order_ID: `${free}_254712345678` }, buyer.token, 400, /free/],
      [{ phone: '254712345678', Order_ID: `${past}_254712345678` }, buyer.token, 400, /already taken place/],
      [{ phone: '254712345678', Order_ID: `${pending}_254712345678` }, buyer.token, 400, /not open/],
      [{ phone: '254712345678', Order_ID: `${'f'.repeat(24)}_254712345678` }, buyer.token, 404, /not found/i],
      [{ phone: '254712345678', Order_ID: `${paid}_254712345678` }, 'forged.token.value', 401, /log in/i],
    ];
    for (const [body, token, status, reason] of cases) {
      const res = await s.payApi('POST', '/api/stkPush', { body, token });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.msg).toMatch(reason);
      if (token) expect(res.body.msg).toMatch(/^Failed to initiate payment/);
    }
    // A 07… number is accepted and normalised.
    const ok = await s.stkPush(buyer.token, paid, '0712 000 111');
    expect(ok.status).toBe(200);
    expect((await s.prompt(ok.body.CheckoutRequestID))?.phone).toBe('254712000111');
  });

  it('refuses an order above M-Pesa\'s per-transaction maximum with a 400 before holding any seat', async () => {
    const buyer = await s.quickUser('bigspender');
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 130_000, capacity: 2 });
    const refused = await s.stkPush(buyer.token, eventId, freshPhone(), { quantity: 2 });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'order_amount_too_large', field: 'quantity', params: { amount: 260_000, max: MPESA_TRANSACTION_MAX } });
    expect(refused.body.msg).toMatch(/^Failed to initiate payment: This order costs Ksh 260000, more than one M-Pesa payment can move \(Ksh 250000\)/);
    // Nothing held, nothing pushed: both seats are still there for an order one payment can pay.
    expect(await s.server.db.select().from(orders).where(eq(orders.eventId, eventId))).toEqual([]);
    const one = await s.stkPush(buyer.token, eventId, freshPhone(), { quantity: 1 });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ amount: 130_000, quantity: 1 });
    const other = await s.stkPush((await s.quickUser('secondbigspender')).token, eventId, freshPhone(), { quantity: 1 });
    expect(other.status).toBe(200);
  });

  it('sells out: the seat held by one buyer is not sold to another', async () => {
    const first = await s.quickUser('firstbuyer');
    const second = await s.quickUser('secondbuyer');
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 500, capacity: 1 });
    const push = await s.stkPush(first.token, eventId, '254700000005');
    expect(push.status).toBe(200);
    const blocked = await s.stkPush(second.token, eventId, freshPhone());
    expect(blocked.status).toBe(409);
    expect(blocked.body.msg).toBe('Failed to initiate payment: Sorry, this event is sold out.');
    const prompt = await s.prompt(push.body.CheckoutRequestID);
    await s.simApi('POST', `${prompt!.promptPath}/cancel`, { body: {} });
    await s.waitSettled(first.token, push.body.CheckoutRequestID);
    const now = await s.stkPush(second.token, eventId, freshPhone());
    expect(now.status).toBe(200);
  });
});

describe('ticket types and promo codes through stkPush', () => {
  it('the prompt asks for the server price of the chosen types less the code; tickets come out of the types bought', async () => {
    const buyer = await s.quickUser('typedbuyer');
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 1000, capacity: 50, title: 'Blankets and Wine' });
    const organiserToken = organiser.token;
    const [regular] = (await s.api('GET', `/api/events/${eventId}/ticket-types`)).body.ticketTypes;
    const types = await s.api('PUT', `/api/events/${eventId}/ticket-types`, {
      token: organiserToken,
      body: { ticketTypes: [{ _id: regular._id, name: 'Regular', price: 1000 }, { name: 'VIP', price: 4000, capacity: 5 }] },
    });
    expect(types.status, JSON.stringify(types.body)).toBe(200);
    const vip = types.body.ticketTypes[1];
    expect((await s.api('POST', `/api/events/${eventId}/promo-codes`, { token: organiserToken, body: { code: 'WINE25', kind: 'percent', value: 25, ticketTypeIds: [vip._id] } })).status).toBe(201);

    const bad = await s.stkPush(buyer.token, eventId, freshPhone(), { items: [{ typeId: vip._id, quantity: 0 }] });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ field: 'items' });
    const badCode = await s.stkPush(buyer.token, eventId, freshPhone(), { items: [{ typeId: vip._id, quantity: 1 }], promoCode: 'no spaces allowed' });
    expect(badCode.body).toMatchObject({ field: 'promoCode', msg: 'Failed to initiate payment: promo codes are letters, digits, - and _ only.' });
    const unknown = await s.stkPush(buyer.token, eventId, freshPhone(), { items: [{ typeId: vip._id, quantity: 1 }], promoCode: 'WINE' });
    expect(unknown.body).toMatchObject({ field: 'promoCode', msg: 'Failed to initiate payment: The promo code WINE is not valid for this event.' });

    const phone = freshPhone();
    const push = await s.stkPush(buyer.token, eventId, phone, { amount: 1, items: [{ typeId: regular._id, quantity: 1 }, { typeId: vip._id, quantity: 2 }], promoCode: 'wine25' });
    expect(push.status, JSON.stringify(push.body)).toBe(200);
    expect(push.body).toMatchObject({ amount: 1000 + 2 * 3000, quantity: 3 });
    expect((await s.prompt(push.body.CheckoutRequestID))?.amount).toBe(7000);
    expect((await s.waitSettled(buyer.token, push.body.CheckoutRequestID)).body).toMatchObject({ success: true, amount: 7000, quantity: 3 });
    const mine = (await s.api('GET', '/api/tickets/mine', { token: buyer.token })).body as Array<{ ticketType: { name: string }; pricePaid: number }>;
    expect(mine.map((ticket) => `${ticket.ticketType.name} ${ticket.pricePaid}`).sort()).toEqual(['Regular 1000', 'VIP 3000', 'VIP 3000']);
  });
});

describe('registration and the client\'s word', () => {
  it('refuses to register for a paid event without a confirmed payment (402)', async () => {
    const user = await s.quickUser('freeloader');
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 1000 });
    const res = await s.api('POST', `/api/events/register/${eventId}`, { token: user.token, body: { userId: user.user._id, tickets: 3 } });
    expect(res.status).toBe(402);
    expect(res.body.message).toBe('Payment required: complete the M-Pesa payment first.');
    // Claiming a success with a made-up CheckoutRequestID changes nothing.
    const claim = await s.api('POST', '/api/transactions', {
      token: user.token,
      body: { userId: user.user._id, transactionData: { eventId, amount: 1, name: 'x', phoneNumber: '254712345678', checkoutRequestId: 'ws_CO_made_up', paymentStatus: 'Success' } },
    });
    expect(claim.status).toBe(404);
    expect((await s.api('POST', `/api/events/register/${eventId}`, { token: user.token, body: { userId: user.user._id } })).status).toBe(402);
  });

  it('POST /api/transactions returns the stored record for its owner only and never changes it', async () => {
    const owner = await s.quickUser('recordowner');
    const other = await s.quickUser('recordsnoop');
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 250, title: 'Jazz Night' });
    const push = await s.stkPush(owner.token, eventId, '254700000001');
    await s.waitSettled(owner.token, push.body.CheckoutRequestID);
    const transactionData = { eventId, amount: 250, name: 'Jazz Night', phoneNumber: '254700000001', checkoutRequestId: push.body.CheckoutRequestID, paymentStatus: 'Success' };
    const mine = await s.api('POST', '/api/transactions', { token: owner.token, body: { userId: owner.user._id, transactionData } });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ checkoutRequestId: push.body.CheckoutRequestID, paymentStatus: 'cancelled', amount: 250 });
    const theirs = await s.api('POST', '/api/transactions', { token: other.token, body: { userId: other.user._id, transactionData } });
    expect(theirs.status).toBe(403);
    const spoofed = await s.api('POST', '/api/transactions', { token: other.token, body: { userId: owner.user._id, transactionData } });
    expect(spoofed.status).toBe(403);
  });

  it('another user can neither confirm my payment nor read my transactions', async () => {
    const owner = await s.quickUser('privateowner');
    const other = await s.quickUser('privatesnoop');
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 100 });
    const push = await s.stkPush(owner.token, eventId, freshPhone());
    await s.waitSettled(owner.token, push.body.CheckoutRequestID);
    const confirm = await s.confirm(other.token, push.body.CheckoutRequestID);
    expect(confirm.status).toBe(404);
    expect(confirm.body).toMatchObject({ success: false, msg: 'No payment to confirm' });
    expect((await s.payApi('POST', '/api/confirmPayment', { body: { CheckoutRequestID: push.body.CheckoutRequestID } })).status).toBe(401);
    const list = await s.api('GET', `/api/transactions/${owner.user._id}`, { token: other.token });
    expect(list.status).toBe(403);
    const admin = await s.server.loginAdmin();
    const asAdmin = await s.api('GET', `/api/transactions/${owner.user._id}`, { token: admin.token });
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body).toHaveLength(1);
  });

  it('the internal API refuses calls without the shared key', async () => {
    const user = await s.quickUser('internalsnoop');
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 100 });
    const noKey = await s.api('POST', '/api/internal/payments/orders', { token: user.token, body: { eventId, phone: '254712345678' } });
    expect(noKey.status).toBe(401);
    const wrongKey = await s.api('POST', '/api/internal/payments/settle', {
      headers: { 'x-internal-key': 'guess' },
      body: { checkoutRequestId: 'ws_CO_x', resultCode: 0, source: 'query' },
    });
    expect(wrongKey.status).toBe(401);
    // A caller that has already given up gets no seats held.
    const late = await s.api('POST', '/api/internal/payments/orders', {
      token: user.token,
      headers: { 'x-internal-key': INTERNAL_KEY },
      body: { eventId, phone: '254712345678', deadline: Date.now() - 1000 },
    });
    expect(late.status).toBe(503);
    expect(await s.server.db.select().from(orders).where(eq(orders.eventId, eventId))).toHaveLength(0);
  });
});

describe('callbacks that cannot be trusted', () => {
  async function manualPush(name: string, price = 400) {
    const buyer = await s.quickUser(name);
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price, capacity: 5 });
    const push = await s.stkPush(buyer.token, eventId, '254700000005');
    expect(push.status).toBe(200);
    const prompt = await s.prompt(push.body.CheckoutRequestID);
    return { buyer, eventId, push, prompt: prompt!, price };
  }

  it('refuses a wrong secret path and unknown CheckoutRequestIDs', async () => {
    const { buyer, eventId, push, prompt, price } = await manualPush('forgery1');
    const forged = successCallback({ checkoutRequestId: push.body.CheckoutRequestID, merchantRequestId: prompt.merchantRequestId, amount: price, phone: '254700000005', receipt: 'FORGED0001' });
    const wrongPath = await s.callback(forged, 'not-the-secret-at-all');
    expect(wrongPath.status).toBe(404);
    const unknown = await s.callback(successCallback({ checkoutRequestId: 'ws_CO_unknown123', merchantRequestId: 'x', amount: price, phone: '254700000005', receipt: 'FORGED0002' }));
    expect(unknown.status).toBe(404);
    expect((await s.confirm(buyer.token, push.body.CheckoutRequestID)).body.status).toBe('pending');
    expect(await ticketCount(eventId)).toBe(0);
    await s.simApi('POST', `${prompt.promptPath}/cancel`, { body: {} });
  });

  it('a wrong amount or phone is checked with Daraja (STK query) and not believed', async () => {
    const { buyer, eventId, push, prompt, price } = await manualPush('forgery2');
    const wrongAmount = await s.callback(
      successCallback({ checkoutRequestId: push.body.CheckoutRequestID, merchantRequestId: prompt.merchantRequestId, amount: 1, phone: '254700000005', receipt: 'FORGED0003' }),
    );
    expect(wrongAmount.status).toBe(200);
    expect(wrongAmount.body.outcome).toBe('left-pending');
    const wrongPhone = await s.callback(
      successCallback({ checkoutRequestId: push.body.CheckoutRequestID, merchantRequestId: prompt.merchantRequestId, amount: price, phone: '254711111111', receipt: 'FORGED0004' }),
    );
    expect(wrongPhone.body.outcome).toBe('left-pending');
    expect((await s.confirm(buyer.token, push.body.CheckoutRequestID)).body.status).toBe('pending');
    expect(await ticketCount(eventId)).toBe(0);

    // The real answer from the phone settles it.
    await s.simApi('POST', `${prompt.promptPath}/pay`, { body: { pin: '0000' } });
    const settled = await s.waitSettled(buyer.token, push.body.CheckoutRequestID);
    expect(settled.body).toMatchObject({ success: true });
    expect(settled.body.mpesaReceiptNumber).not.toMatch(/^FORGED/);
    expect(await ticketCount(eventId)).toBe(1);
  });

  it('duplicate and out-of-order callbacks issue tickets exactly once', async () => {
    const buyer = await s.quickUser('duplicates');
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 150, capacity: 10 });
    const push = await s.stkPush(buyer.token, eventId, freshPhone(), { quantity: 3 });
    const done = await s.waitPromptDone(push.body.CheckoutRequestID);
    const settled = await s.waitSettled(buyer.token, push.body.CheckoutRequestID);
    expect(settled.body.success).toBe(true);
    const replay = successCallback({ checkoutRequestId: push.body.CheckoutRequestID, merchantRequestId: done.merchantRequestId, amount: 450, phone: done.phone, receipt: done.receipt });
    const replies = await Promise.all(Array.from({ length: 8 }, () => s.callback(replay)));
    for (const reply of replies) {
      expect(reply.status).toBe(200);
      expect(reply.body.outcome).toBe('duplicate');
    }
    // A late "cancelled" for a payment that succeeded is checked with Daraja and changes nothing.
    const lateCancel = await s.callback({
      Body: { stkCallback: { MerchantRequestID: done.merchantRequestId, CheckoutRequestID: push.body.CheckoutRequestID, ResultCode: 1032, ResultDesc: 'Request cancelled by user' } },
    });
    expect(lateCancel.status).toBe(200);
    expect((await s.confirm(buyer.token, push.body.CheckoutRequestID)).body).toMatchObject({ success: true, status: 'success' });
    expect(await ticketCount(eventId)).toBe(3);
    // The reconciler querying again is harmless too.
    await s.pay.reconciler.runOnce();
    expect(await ticketCount(eventId)).toBe(3);
  });

  it('a receipt number already used by another payment is refused', async () => {
    const first = await s.quickUser('receipt1');
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 100 });
    const paid = await s.stkPush(first.token, eventId, freshPhone());
    const done = await s.waitPromptDone(paid.body.CheckoutRequestID);
    await s.waitSettled(first.token, paid.body.CheckoutRequestID);
    const { push, prompt, price, buyer } = await manualPush('receipt2', 100);
    const reused = await s.callback(
      successCallback({ checkoutRequestId: push.body.CheckoutRequestID, merchantRequestId: prompt.merchantRequestId, amount: price, phone: '254700000005', receipt: done.receipt }),
    );
    expect(reused.body.outcome).toBe('left-pending');
    expect((await s.confirm(buyer.token, push.body.CheckoutRequestID)).body.status).toBe('pending');
    await s.simApi('POST', `${prompt.promptPath}/cancel`, { body: {} });
  });
});
