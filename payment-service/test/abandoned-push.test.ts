import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { orders } from '../../server/src/db/schema.js';
import { createApiServerClient, type ApiServerClient } from '../src/api-server-client.js';
import { startPaymentService, type RunningPaymentService } from '../src/start.js';
import { INTERNAL_KEY, startStack, type Stack } from './helpers/stack.js';

/**
 * An stkPush whose order hold comes back only after the buyer stopped waiting (the API server's /pay proxy
 * answered 504 and closed the connection, or the browser went away): the seats are released and no M-Pesa
 * prompt is sent, so nobody is asked to pay for a checkout they were told had failed.
 */

let s: Stack;
let slow: RunningPaymentService;
let slowDir: string;
/** Resolves when the held-back createOrder was called; the test then lets it go on with `release`. */
let entered: () => void = () => undefined;
let release: () => void = () => undefined;

beforeAll(async () => {
  s = await startStack();
  const real = createApiServerClient({ baseUrl: s.server.url, internalApiKey: INTERNAL_KEY });
  // The real API server, reached only once the test says so: a hold that takes as long as the test wants.
  const heldBack: ApiServerClient = {
    ...real,
    async createOrder(token, body) {
      entered();
      await new Promise<void>((resolve) => (release = resolve));
      return real.createOrder(token, body);
    },
  };
  slowDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-pay-slow-'));
  slow = await startPaymentService({ ...s.config, dataDir: slowDir }, { api: heldBack });
  s.sim.allowCallbacksTo(slow.callbackUrl);
}, 60_000);
afterAll(async () => {
  await slow?.close();
  await s?.close();
  if (slowDir) rmSync(slowDir, { recursive: true, force: true });
});

describe('an stkPush nobody waits for any more', () => {
  it('releases the seats it was given and sends no prompt', async () => {
    const organiser = await s.quickUser('abandonorganiser');
    const buyer = await s.quickUser('abandonbuyer');
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 50, capacity: 10 });
    const phone = '254733300001';
    const inCreateOrder = new Promise<void>((resolve) => (entered = resolve));
    const gaveUp = new AbortController();
    const push = fetch(`${slow.url}/api/stkPush`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${buyer.token}` },
      body: JSON.stringify({ phone, amount: 1, Order_ID: `${eventId}_${phone}` }),
      signal: gaveUp.signal,
    }).catch((error: unknown) => error);

    // The buyer's side gives up while the hold is still on its way (as the /pay proxy does after its timeout).
    await inCreateOrder;
    gaveUp.abort();
    expect(await push).toMatchObject({ name: 'AbortError' });
    release();

    // The hold was made, then released: its order ends `failed`, never left pending for a prompt.
    const rows = await vi.waitFor(
      async () => {
        const current = await s.server.db.select({ status: orders.status }).from(orders).where(eq(orders.userId, buyer.user._id));
        if (current.length === 0 || current.some((row) => row.status === 'pending')) throw new Error(`the abandoned checkout's order is still ${JSON.stringify(current)}`);
        return current;
      },
      { timeout: 15_000, interval: 50 },
    );
    expect(rows).toEqual([{ status: 'failed' }]);
    const prompts = (await (await fetch(`${s.sim.url}/simulator/prompts`, { headers: s.simulatorKey })).json()) as Array<{ phone: string }>;
    expect(prompts.filter((prompt) => prompt.phone === phone)).toEqual([]);
  }, 60_000);
});
