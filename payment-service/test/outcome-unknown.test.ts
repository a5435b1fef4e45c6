import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it, onTestFailed, vi } from 'vitest';
import { newId } from '../../server/src/db/ids.js';
import { users } from '../../server/src/db/schema.js';
import { insertEventRow } from '../../server/test/helpers/events.js';
import { startTestServer, type TestServer } from '../../server/test/helpers/test-server.js';
import { startTestSimulator, type TestSimulator } from './helpers/daraja-simulator.js';
import { freePort, startGate, startService, type ServiceProcess } from './helpers/processes.js';

/**
 * The payment service dies mid-checkout: the API server asked it for the prompt and the prompt went to Daraja (the
 * simulator here), then the process was SIGKILLed before its answer reached the API server. The API server cannot
 * know whether a prompt is on the phone, so it must not say "not reachable, try again": it answers
 * `payment_outcome_unknown` and keeps the seats held, and the payment shows up in the buyer's transactions once the
 * restarted service replays its push journal (what the payment dialog keeps polling for). A push that never reached
 * the service is still plainly "not reachable".
 */

const JWT_SECRET = 'outcome-test-secret-that-is-long-enough-for-hs256';
const INTERNAL_KEY = 'outcome-test-internal-key-0123456789';

let server: TestServer;
let gate: Awaited<ReturnType<typeof startGate>>;
let pay: ServiceProcess | undefined;
let payPort: number;
let gatePort: number;
let dataDir: string;
let sim: TestSimulator;

beforeAll(async () => {
  payPort = await freePort();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-outcome-'));
  // The simulated customer pays after a while; the simulator outlives the payment service, as Daraja would.
  sim = await startTestSimulator(dataDir, { SIMULATOR_DELAY_MS: '1000', SIMULATOR_CALLBACK_ORIGINS: `http://127.0.0.1:${payPort}` });
  // The API server reaches the payment service through a gate, which can keep the payment service's answers from it.
  gatePort = await freePort();
  gate = await startGate(`http://127.0.0.1:${payPort}`, gatePort);
  server = await startTestServer({ JWT_SECRET, INTERNAL_API_KEY: INTERNAL_KEY, PAYMENT_URL: gate.url });
}, 180_000);
afterAll(async () => {
  await pay?.kill();
  await gate?.close();
  await sim?.close();
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const startPayment = () =>
  startService({
    name: 'payment service',
    entry: 'payment-service/src/index.ts',
    port: payPort,
    env: {
      PAYMENT_PORT: String(payPort),
      API_URL: server.url,
      DATA_DIR: dataDir,
      INTERNAL_API_KEY: INTERNAL_KEY,
      ...sim.paymentEnv,
      // The reconciler replays the journal every half second.
      RECONCILE_INTERVAL_MS: '500',
      RECONCILE_AFTER_SECONDS: '1',
    },
  });

describe('the payment service dies after sending the prompt', () => {
  it('answers payment_outcome_unknown, and the payment is found later; a push that never reached it is "not reachable"', { timeout: 120_000 }, async () => {
    onTestFailed(() => console.error(`--- payment service ---\n${pay?.output()}`));
    const organiserId = newId();
    const buyerId = newId();
    await server.db.insert(users).values([
      { id: organiserId, username: 'outcomeorganiser', email: 'outcomeorganiser@example.com', passwordHash: 'x', emailVerifiedAt: new Date() },
      { id: buyerId, username: 'outcomebuyer', email: 'outcomebuyer@example.com', passwordHash: 'x', emailVerifiedAt: new Date() },
    ]);
    const token = jwt.sign({ tv: 0 }, JWT_SECRET, { subject: buyerId, expiresIn: '1h' });
    const eventId = await insertEventRow(server.db, { ownerId: organiserId, price: 70, days: 7 });
    const stkPush = (phone: string) =>
      fetch(`${server.url}/pay/stkPush`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ phone, amount: 1, Order_ID: `${eventId}_${phone}` }),
      });

    pay = await startPayment();
    gate.holdAnswers(/stk-push/);
    const answer = stkPush('254733400001');
    // The prompt went out (the payment service answered, and the gate keeps the answer): now the process dies, and the API server's call with it.
    await vi.waitFor(() => expect(gate.held(/stk-push/).length).toBeGreaterThan(0), { timeout: 30_000, interval: 100 });
    await pay.kill();
    gate.dropHeld();
    const unknown = await answer;
    expect(unknown.status).toBe(502);
    expect(await unknown.json()).toMatchObject({
      code: 'payment_outcome_unknown',
      msg: 'Your M-Pesa prompt may have been sent: watch your phone. If you pay, your tickets will follow.',
    });

    // Nobody listening: the request never reaches the service, so nothing can have been sent.
    await gate.close();
    const unreachable = await stkPush('254733400002');
    expect(unreachable.status).toBe(503);
    expect(await unreachable.json()).toMatchObject({ code: 'payment_service_unreachable' });
    gate = await startGate(`http://127.0.0.1:${payPort}`, gatePort);

    // Restarted, the service records the journaled push; the buyer's transactions show it (what the dialog polls).
    pay = await startPayment();
    const found = await vi.waitFor(
      async () => {
        const response = await fetch(`${server.url}/api/transactions/${buyerId}`, { headers: { authorization: `Bearer ${token}` } });
        const items = (await response.json()) as Array<{ eventId: string; checkoutRequestId: string; paymentStatus: string }>;
        const item = items.find((entry) => entry.eventId === eventId);
        if (!item) throw new Error('the payment is not in the transactions yet');
        return item;
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(found.checkoutRequestId).toMatch(/^ws_CO_/);
  });
});
