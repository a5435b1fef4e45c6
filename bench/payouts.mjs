// bench/payouts.mjs — organiser payouts at scale. The checkout bench's stack (API server on embedded PGlite by
// default, payment service, the Daraja simulator in its own process) with a short PAYOUT_JOB_MS; N organisers
// seeded with SQL, each with a paid event and one confirmed payout destination (an M-Pesa number, B2C; every
// B2B_EVERY-th a Paybill or a Till, B2B), one buyer per event through the real checkout and the simulator; then an
// administrator trusts every organiser with early payouts (PUT /api/admin/users/:id/early-payouts, with
// EARLY_PAYOUT_SHARE=100 so the whole net is payable before the event), which is the moment the payouts become due.
// Measured from there until every payout is final (paid in the simulator's ledger, or failed for good, and none
// open in GET /api/admin/payouts): payouts/s, server CPU per payout (API + payment service +
// PostgreSQL; the simulator is not counted), payouts failed or left, then `npm run audit:payments` (goal 0
// discrepancies). Exits 1 when a payout is not paid or the audit finds anything.
// Usage: node bench/payouts.mjs   (the API server on embedded PGlite, as `npm start` runs it by default; PAYOUTS_DB=postgres:
//   a fresh database on PostgreSQL at 127.0.0.1:5432 or BENCH_DATABASE_URL, its backends' CPU counted; DATABASE_URL=postgres://…
//   runs on that database as it is, migrated by the API server)
// Knobs: PAYOUTS_N=1000 (organisers) PAYOUT_JOB_MS=500 B2B_EVERY=10 DRAIN_TIMEOUT_S=600; the sale (setup, not measured):
//        SIMULATOR_DELAY_MS=50 POLL_MS=3000 (buyers poll as the client does) SALE_WAVE=200 (buyers at a time)
// The destinations are written as confirmed rows: confirming each by SMS code (bcrypt on the password, one SMS
// each) is payout-accounts' subject (server/test/payouts-end-to-end.test.ts), not the payouts' cost measured here.
import os from 'node:os';
import jwt from 'jsonwebtoken';
import { createClient, PRICE, runBenchWithAudit, runSale, waitForTicketEmails } from './checkout-stack.mjs';
import { loadAverage, startCpuMeter } from './lib.mjs';

const N = Number(process.env.PAYOUTS_N ?? 1000);
const PAYOUT_JOB_MS = Number(process.env.PAYOUT_JOB_MS ?? 500);
const B2B_EVERY = Number(process.env.B2B_EVERY ?? 10);
const SIMULATOR_DELAY_MS = Number(process.env.SIMULATOR_DELAY_MS ?? 50);
const POLL_MS = Number(process.env.POLL_MS ?? 3000);
const SALE_WAVE = Number(process.env.SALE_WAVE ?? 200);
const DRAIN_TIMEOUT_S = Number(process.env.DRAIN_TIMEOUT_S ?? 600);

/** Inserts `rows` (arrays of values) into `table (columns)` in chunks of 500, `literals` appended to each row as written. */
async function insertRows(db, table, columns, rows, literals = '') {
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    const width = chunk[0].length;
    const values = chunk.map((row, j) => `(${row.map((_, k) => `$${j * width + k + 1}`).join(', ')}${literals})`).join(', ');
    await db.query(`INSERT INTO ${table} (${columns}) VALUES ${values}`, chunk.flat());
  }
}

/** Where organiser `i` is paid: an M-Pesa number, or every B2B_EVERY-th a Paybill (even) or a Till (odd). */
function destinationOf(i) {
  if (B2B_EVERY > 0 && i % B2B_EVERY === B2B_EVERY - 1) {
    return (i / B2B_EVERY) % 2 < 1 ? { method: 'paybill', shortcode: String(300000 + i), accountReference: `ACC${i}` } : { method: 'till', shortcode: String(500000 + i) };
  }
  // 25472…: clear of the simulator's reserved test numbers and of the buyers' 25471….
  return { method: 'mpesa', phone: `25472${String(i).padStart(7, '0')}` };
}

/** An administrator, N organisers (each a paid event at PRICE and a confirmed destination) and one buyer per event. */
async function seedOrganisers(db, { secret }) {
  const hex = (base, i) => (base + i).toString(16).padStart(24, '0');
  const organisers = Array.from({ length: N }, (_, i) => hex(0x30000000, i));
  const buyers = Array.from({ length: N }, (_, i) => hex(0x40000000, i));
  const eventIds = Array.from({ length: N }, (_, i) => hex(0x50000000, i));
  const adminId = hex(0x60000000, 0);
  await insertRows(
    db,
    'users',
    'id, username, email, password_hash, role, email_verified_at',
    [
      [adminId, 'benchadmin', 'benchadmin@bench.local', 'admin'],
      ...organisers.map((id, i) => [id, `organiser${i}`, `organiser${i}@bench.local`, 'user']),
      ...buyers.map((id, i) => [id, `buyer${i}`, `buyer${i}@bench.local`, 'user']),
    ].map(([id, username, email, role]) => [id, username, email, 'x', role]),
    ', now()',
  );
  await insertRows(
    db,
    'events',
    'id, title, description, location, status, is_paid, ticket_price, capacity, user_id, starts_at',
    eventIds.map((id, i) => [id, `Bench Payout Night ${i}`, 'bench', 'Nairobi', 'approved', true, PRICE, 10, organisers[i]]),
    ", now() + interval '30 days'",
  );
  await insertRows(
    db,
    'payout_accounts',
    'id, user_id, method, phone, shortcode, account_reference, code_phone, code_hash, code_expires_at, status, confirmed_at',
    organisers.map((id, i) => {
      const destination = destinationOf(i);
      return [hex(0x70000000, i), id, destination.method, destination.phone ?? null, destination.shortcode ?? null, destination.accountReference ?? null, destination.phone ?? `25473${String(i).padStart(7, '0')}`, 'x'];
    }),
    ", now(), 'confirmed', now()",
  );
  const sign = (id) => jwt.sign({ tv: 0 }, secret, { subject: id, expiresIn: '2h' });
  return {
    eventId: undefined,
    adminToken: sign(adminId),
    organisers,
    buyers: buyers.map((id, i) => ({ id, token: sign(id), phone: `25471${String(i).padStart(7, '0')}`, eventId: eventIds[i] })),
  };
}

const benchStarted = performance.now();
await runBenchWithAudit(
  {
    name: 'tukio_bench_payouts',
    // PGlite in DATA_DIR (as `npm start` runs) unless PAYOUTS_DB=postgres (a fresh database) or DATABASE_URL is set.
    embedded: process.env.PAYOUTS_DB !== 'postgres',
    simulatorDelayMs: SIMULATOR_DELAY_MS,
    seed: seedOrganisers,
    apiEnv: { PAYOUT_JOB_MS: String(PAYOUT_JOB_MS), EARLY_PAYOUT_SHARE: '100' },
    paymentEnv: { PAYOUT_RESULT_RETRY_MS: '200' },
  },
  async (stack, fail) => {
    console.log(
      `${N} organisers (${B2B_EVERY > 0 ? `every ${B2B_EVERY}th paid by B2B` : 'all by B2C'}), one KES ${PRICE} ticket each; payouts job every ${PAYOUT_JOB_MS} ms; ${stack.db ? 'PostgreSQL' : 'PGlite'}; load average before: ${loadAverage()} on ${os.cpus().length} cores`,
    );
    // In waves of SALE_WAVE buyers: the sale is setup here, and 1,000 buyers at once stall the API server on PGlite.
    const sale = { confirmed: 0, serverErrors: 0, otherFailures: 0, client: createClient(), startedAt: performance.now(), lastConfirmedAt: 0 };
    for (let i = 0; i < N; i += SALE_WAVE) {
      const wave = await runSale({ ...stack, buyers: stack.buyers.slice(i, i + SALE_WAVE) }, { pollMs: POLL_MS, client: sale.client });
      for (const count of ['confirmed', 'serverErrors', 'otherFailures']) sale[count] += wave[count];
      sale.lastConfirmedAt = Math.max(sale.lastConfirmedAt, wave.lastConfirmedAt);
    }
    // The sale's ticket emails are its cost, not the payouts': the CPU is counted once they are written.
    const emails = await waitForTicketEmails(stack, sale.confirmed);
    console.log(`sale: ${sale.confirmed} of ${N} paid in ${((sale.lastConfirmedAt - sale.startedAt) / 1000).toFixed(1)} s, ${sale.serverErrors} 5xx, ${sale.otherFailures} other failures; ${emails} ticket emails written`);
    if (sale.confirmed !== N) fail();

    // Read through the API (on PGlite the database is the API server's alone): at most 200 payouts of a status, so
    // the count of paid ones comes from M-Pesa's side, the simulator's ledger (organiser payouts: B2C or B2B).
    const adminPayouts = async (status) => {
      const answer = await sale.client.request('GET', `${stack.api.url}/api/admin/payouts${status ? `?status=${status}` : ''}`, stack.adminToken);
      if (answer.status !== 200) throw new Error(`GET /api/admin/payouts answered ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body;
    };
    const paidByMpesa = async () => {
      const books = await (await fetch(stack.ledgerUrl)).json();
      return [...books.refunds.filter((entry) => entry.kind === 'b2c' && entry.originatorConversationId.startsWith('tukio-payout-')), ...books.b2b];
    };
    const madeEarly = await adminPayouts();
    if (madeEarly.length > 0) throw new Error(`${madeEarly.length} payouts were made before any was due`);

    // Due now: the administrator trusts every organiser (50 requests at a time).
    const cpuMeter = await startCpuMeter(stack);
    const dueAt = performance.now();
    for (let i = 0; i < N; i += 50) {
      const answers = await Promise.all(stack.organisers.slice(i, i + 50).map((id) => sale.client.request('PUT', `${stack.api.url}/api/admin/users/${id}/early-payouts`, stack.adminToken, { allowed: true })));
      const refused = answers.find((answer) => answer.status !== 200);
      if (refused) throw new Error(`PUT /api/admin/users/:id/early-payouts answered ${refused.status} ${JSON.stringify(refused.body)}`);
    }
    const trustSeconds = (performance.now() - dueAt) / 1000;

    // Final when M-Pesa paid or we gave up on every organiser's payout, and none is open in our books.
    const deadline = Date.now() + DRAIN_TIMEOUT_S * 1000;
    let paidOut = await paidByMpesa();
    let failed = [];
    let polls = 0;
    const openPayouts = async () => [...(await adminPayouts('sending')), ...(await adminPayouts('retrying'))];
    for (;;) {
      if (paidOut.length + failed.length >= sale.confirmed && (await openPayouts()).length === 0) break;
      if (Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
      paidOut = await paidByMpesa();
      // The ledger costs the simulator only; the API server's list (its CPU is measured) is read every 2 s.
      if (++polls % 20 === 0) failed = (await adminPayouts('failed')).filter((payout) => !payout.retriedAt);
    }
    const seconds = (performance.now() - dueAt) / 1000;
    const cpu = await cpuMeter.read();
    const open = await openPayouts();

    const paid = paidOut.length;
    const b2b = paidOut.filter((entry) => entry.commandId);
    const shillings = (entries) => entries.reduce((sum, entry) => sum + entry.amount, 0);
    const serverCpu = cpu.api + cpu.pay + cpu.pg;
    console.log(`load average after: ${loadAverage()}`);
    console.log(`due: ${N} organisers trusted with early payouts in ${trustSeconds.toFixed(1)} s (setup before that, stack and sale: ${((dueAt - benchStarted) / 1000).toFixed(1)} s)`);
    console.log(`payouts paid (M-Pesa's ledger): ${paid}, KES ${shillings(paidOut)} (${paid - b2b.length} B2C, ${b2b.length} B2B); failed: ${failed.length}; left open: ${open.length}`);
    console.log(`${paid} paid in ${seconds.toFixed(1)} s from due to the last paid = ${(paid / seconds).toFixed(1)} payouts/s (job every ${PAYOUT_JOB_MS} ms)`);
    console.log(
      `CPU used: API ${cpu.api.toFixed(1)} s, payment service ${cpu.pay.toFixed(1)} s, PostgreSQL ~${cpu.pg.toFixed(1)} s; not counted: Daraja simulator ${cpu.daraja.toFixed(1)} s, bench client ${cpu.bench.toFixed(1)} s`,
    );
    console.log(`server-side CPU per paid payout (API + payment service + PostgreSQL, the trust requests included): ${((serverCpu / Math.max(paid, 1)) * 1000).toFixed(1)} ms`);
    if (paid !== sale.confirmed || failed.length > 0 || open.length > 0) fail();
  },
);
