import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutAnswers } from '../../server/src/db/schema.js';
import { insertEventRow } from '../../server/test/helpers/events.js';
import { internalHeaders, payFor } from '../../server/test/helpers/refunds.js';
import { accessibilityProblems } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * A guest buyer edits their checkout answers at phone width (390) on the page their SMS link opens (/t/<token>),
 * as a member does on /profile: the same form, the server's rules (a required answer left empty is refused at its
 * field), saved for the organiser's attendee list.
 */

let h: Harness;
let token: string;
let orderId: string;

beforeAll(async () => {
  h = await startHarness();
  const organiser = await h.server.createUser('gaowner');
  const eventId = await insertEventRow(h.server.db, { ownerId: organiser.user._id, days: 9, price: 600, capacity: 40, title: 'Lamu Cultural Night' });
  const ask = (body: Record<string, unknown>) => h.server.api('POST', `/api/events/${eventId}/questions`, { token: organiser.token, body });
  expect((await ask({ label: 'Name on ticket', kind: 'text', required: true, per: 'attendee' })).status).toBe(201);
  expect((await ask({ label: 'T-shirt size', kind: 'choice', options: ['S', 'M', 'L'] })).status).toBe(201);
  const paid = await payFor(h.server, undefined, eventId, { phone: '254722444111', quantity: 2 });
  orderId = paid.orderId;
  const status = await h.server.api('GET', `/api/internal/payments/guest-status/${paid.checkoutRequestId}`, { headers: internalHeaders(h.server) });
  token = status.body.ticketToken as string;
}, 120_000);
afterAll(async () => {
  await h?.close();
});

describe('guest answers', () => {
  it('a guest fills in the answers from their ticket link; a required one left empty is refused', async () => {
    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await page.goto(`/t/${token}`);
    await page.getByRole('heading', { name: 'Lamu Cultural Night', level: 1 }).waitFor();
    // Nothing answered yet: the answers are open, with a word on why.
    await page.getByText("The organiser's questions are not answered yet.").waitFor();
    await page.getByLabel('Name on ticket · ticket 1 of 2').fill('Mwanaisha Ali');
    await page.getByRole('button', { name: 'Save answers' }).click();
    await page.getByText('Please answer “Name on ticket”.').waitFor();
    expect(await h.server.db.select().from(checkoutAnswers).where(eq(checkoutAnswers.orderId, orderId))).toEqual([]);

    await page.getByLabel('Name on ticket · ticket 2 of 2').fill('Omar Said');
    await page.getByLabel('T-shirt size (optional)').selectOption('L');
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save answers' }).click();
    await page.getByText('Your answers were saved.').waitFor();
    await expect
      .poll(async () => (await h.server.db.select().from(checkoutAnswers).where(eq(checkoutAnswers.orderId, orderId))).map((row) => row.answer).sort(), { timeout: 10_000 })
      .toEqual(['L', 'Mwanaisha Ali', 'Omar Said']);

    // Opened again later, the link shows them.
    await page.reload();
    await page.getByText('Your answers', { exact: true }).click();
    await expect.poll(() => page.getByLabel('Name on ticket · ticket 2 of 2').inputValue()).toBe('Omar Said');
    expect(seriousErrors(errors)).toEqual([]);
  });
});
