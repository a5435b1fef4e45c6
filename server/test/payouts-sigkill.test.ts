import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { events, ledgerTransactions, payoutAttempts, payouts } from '../src/db/schema.js';
import { insertEventRow } from './helpers/events.js';
import { confirmPayoutPhone, startPayoutServices, waitFor, type PayoutServices } from './helpers/payout-services.js';
import { payFor } from './helpers/refunds.js';
import { createPostgresDatabase } from './helpers/test-database.js';
import { freePort } from './helpers/test-server.js';

/**
 * kill -9 of the API server during a payout, on PostgreSQL (the database must outlive the process): the payout was
 * sent to the payment service and accepted by M-Pesa (the simulator), the API server dies before the result comes
 * back (the simulator answers after SIMULATOR_DELAY_MS), the payment service's outbox keeps the result and delivers
 * it once the API server is back on the same database: paid exactly once, and the audit agrees with M-Pesa.
 */

/** The payment service's process helpers (its workspace, outside this tsconfig's rootDir): typed by what is used. */
interface ServiceProcess {
  url: string;
  output(): string;
  kill(): Promise<void>;
  stop(): Promise<void>;
}
type StartService = (options: { name: string; entry: string; port: number; env: Record<string, string> }) => Promise<ServiceProcess>;

/** Long enough that the API server is surely killed before M-Pesa's result comes back, even on a busy machine. */
const RESULT_DELAY_MS = 8000;

let services: PayoutServices;
let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
let apiDataDir: string;
let api: ServiceProcess | undefined;
let apiPort = 0;

// On PostgreSQL in both passes (as migrations-lock.test.ts): a killed process's database must outlive it, and a
// throwaway PostgreSQL database does; never skipped.
describe('kill -9 of the API server during a payout (PostgreSQL)', () => {
  beforeAll(async () => {
    database = await createPostgresDatabase('tukio_payout_kill');
    apiDataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-payout-kill-'));
    apiPort = await freePort();
    // The in-process server sets the data up (users, SMS code, the sale) and reads the database; the API server the
    // payment service talks to (API_URL) is the process started below, on the same database.
    services = await startPayoutServices({
      paymentEnv: { API_URL: `http://127.0.0.1:${apiPort}` },
      simulatorEnv: { SIMULATOR_DELAY_MS: String(RESULT_DELAY_MS) },
      databaseUrl: database.url,
    });
  }, 120_000);

  afterAll(async () => {
    await api?.kill();
    await services?.close();
    await database?.drop();
    if (apiDataDir) rmSync(apiDataDir, { recursive: true, force: true });
  });

  it('the outbox delivers the result to the restarted API server: one payout at M-Pesa, one payout_paid, a clean audit', async () => {
    const { t, simulator } = services;
    const organiser = await t.createUser('killorganiser', 'organiser-secret-1');
    const buyer = await t.createUser('killbuyer');
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 20, price: 600 });
    await confirmPayoutPhone(t, organiser, 'organiser-secret-1', '254722000654');
    const bought = await payFor(t, buyer.token, eventId, { quantity: 2, phone: '254711000654' });
    // Ended long ago: payable now whatever PAYOUT_DELAY_DAYS is.
    await t.db.update(events).set({ startsAt: new Date(Date.now() - 10 * 24 * 60 * 60 * 1000) }).where(eq(events.id, eventId));

    const { startService } = (await import(new URL('../../payment-service/test/helpers/processes.ts', import.meta.url).href)) as { startService: StartService };
    const launchApi = () =>
      startService({
        name: 'API server',
        entry: 'server/src/index.ts',
        port: apiPort,
        env: {
          PORT: String(apiPort),
          DATABASE_URL: database.url,
          DATA_DIR: path.join(apiDataDir, 'api'),
          JWT_SECRET: t.config.jwtSecret,
          INTERNAL_API_KEY: t.config.internalApiKey,
          PAYMENT_PORT: String(services.pay.port),
          SEED_DEMO: 'false',
          PAYOUT_JOB_MS: '300',
          SMS_REMINDER_SWEEP_MS: '0',
        },
      });
    onTestFailed(() => console.error(`--- last output of the API server ---\n${api?.output().split('\n').slice(-40).join('\n')}`));
    api = await launchApi();

    // The API server's job sends the payout; once M-Pesa holds it (its result still to come), kill -9.
    const simulatorPayouts = async () => {
      const response = await fetch(`${simulator.url}/simulator/payouts`, { headers: { 'x-simulator-key': simulator.paymentEnv.SIMULATOR_KEY! } });
      return (await response.json()) as Array<{ originatorConversationId: string; amount: number; status: string }>;
    };
    const atMpesa = await waitFor(async () => (await simulatorPayouts())[0], 'the payout to reach M-Pesa', 60_000);
    await api.kill();
    api = undefined;
    const [sent] = await t.db.select().from(payouts).where(eq(payouts.organiserId, organiser.user._id));
    expect(sent).toMatchObject({ amount: 1200, status: 'sending' });
    expect(atMpesa).toMatchObject({ amount: 1200, status: 'queued' });

    // M-Pesa pays and calls back while the API server is down: the payment service keeps the result in its outbox
    // (nobody recorded it), and delivers it after the restart.
    await waitFor(async () => ((await simulatorPayouts())[0]?.status === 'paid' ? true : undefined), 'M-Pesa to pay the payout', 60_000);
    const [unrecorded] = await t.db.select().from(payouts).where(eq(payouts.id, sent!.id));
    expect(unrecorded).toMatchObject({ status: 'sending', receipt: null });
    api = await launchApi();
    const paid = await waitFor(async () => {
      const [row] = await t.db.select().from(payouts).where(eq(payouts.id, sent!.id));
      return row?.status === 'paid' ? row : undefined;
    }, 'the payout to be paid after the restart', 90_000);
    expect(paid).toMatchObject({ amount: 1200, attempts: 1 });

    expect(await simulatorPayouts()).toHaveLength(1);
    expect(await t.db.select().from(payoutAttempts).where(eq(payoutAttempts.payoutId, sent!.id))).toHaveLength(1);
    expect(await t.db.select().from(ledgerTransactions).where(and(eq(ledgerTransactions.kind, 'payout_paid'), eq(ledgerTransactions.payoutId, sent!.id)))).toHaveLength(1);
    expect(await t.db.select().from(payouts).where(eq(payouts.organiserId, organiser.user._id))).toHaveLength(1);

    // The buyer's payment was settled through the internal calls, so it is added to M-Pesa's books as M-Pesa would report it.
    const audit = await services.audit({ payments: [{ receipt: bought.receipt, amount: bought.amount, phone: bought.phone, checkoutRequestId: bought.checkoutRequestId }] });
    expect(audit.books.payouts).toMatchObject([{ transactionId: paid.receipt, amount: 1200 }]);
    expect(audit.checked).toMatchObject({ payments: 1, payouts: 1 });
    expect(audit.discrepancies).toEqual([]);
  }, 240_000);
});
