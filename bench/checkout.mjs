// bench/checkout.mjs — 1,000 concurrent buyers through the whole paid checkout on PostgreSQL:
// payment service (stkPush) -> API server (order + seat hold) -> Daraja simulator -> callback ->
// settlement (tickets issued) -> each buyer told by push on the /payments socket, then confirmPayment once. Prints confirmed tickets/s, p50/p99
// latencies and the oversold count, then runs `npm run audit:payments` against the stack.
// Targets: >= 50 confirmed tickets/s, 0 oversold, no 5xx, 0 discrepancies.
// Usage: node bench/checkout.mjs   (needs PostgreSQL on 127.0.0.1:5432); MODE=c2b node bench/checkout.mjs (below)
// Knobs: BUYERS=1000 SEATS=900 SIMULATOR_DELAY_MS=200 POLL_MS=3000 (the client polls every 3 s while its socket does not follow the push)
//        FOLLOW=push (default through /pay: each buyer follows its payment on the /payments socket as the dialog does, then
//        confirms once) or FOLLOW=poll (polls every POLL_MS, as the original contract's client does: the default with CHECKOUT_VIA=adapter)
//        TYPES=3: three ticket types (Regular, Early Bird, VIP with its own capacity) bought in turn, every
//        other buyer with a 10% promo code (goal: within 10% of the single-type run's tickets/s)
//        AUDIT_SETTLE_S=180: how long the audit may wait for payments still being recorded (an overloaded host)
// MODE=c2b: buyers pay from the M-Pesa menu (Paybill, docs/decisions/paybill.md) instead of the prompt: BUYERS
//        orders are held (SEATS defaults to BUYERS), then each buyer pays its order code through the simulator's
//        C2B API (POST /simulator/menu/pay: validation, then the confirmation through the payment service's
//        outbox to the one settle path), all at once. Prints payments/s from the first payment to the last
//        settled order, server CPU per payment (API + payment service + PostgreSQL, ticket emails included),
//        oversold, and the audit. Targets: every order paid, 0 oversold, 0 discrepancies.
import os from 'node:os';
import SIMULATOR_CREDENTIALS from '../simulator/src/credentials.json' with { type: 'json' };
import { internalRequests, runSale, runBenchWithAudit, waitForTicketEmails } from './checkout-stack.mjs';
import { loadAverage, percentile, startCpuMeter } from './lib.mjs';

const MODE = process.env.MODE ?? 'stk';
const BUYERS = Number(process.env.BUYERS ?? 1000);
const SEATS = Number(process.env.SEATS ?? (MODE === 'c2b' ? BUYERS : 900));
const SIMULATOR_DELAY_MS = Number(process.env.SIMULATOR_DELAY_MS ?? 200);
const POLL_MS = Number(process.env.POLL_MS ?? 3000);
const TYPED = process.env.TYPES === '3';

if (MODE !== 'stk' && MODE !== 'c2b') {
  console.error(`MODE must be stk (the default) or c2b, not ${MODE}`);
  process.exit(2);
}
if (MODE === 'c2b') await runPaybillBench();

/**
 * MODE=c2b. The holds go through the API server's internal order route (what the payment service calls before a
 * prompt); the Paybill number is the simulator's shortcode, registered by the payment service at its start.
 */
async function runPaybillBench() {
  const apiEnv = { PAYBILL_SHORTCODE: SIMULATOR_CREDENTIALS.shortcode };
  await runBenchWithAudit({ name: 'tukio_bench_c2b', buyers: BUYERS, seats: SEATS, simulatorDelayMs: SIMULATOR_DELAY_MS, apiEnv }, async (stack, fail) => {
    const { db, eventId } = stack;
    console.log(`MODE=c2b: ${BUYERS} buyers pay from the M-Pesa menu, ${SEATS} seats; load average before: ${loadAverage()} on ${os.cpus().length} cores`);
    const internalKey = stack.paymentEnv.INTERNAL_API_KEY;
    let refused = 0;
    let networkErrors = 0;
    const holdStarted = performance.now();
    const held = (
      await Promise.all(
        stack.buyers.map(async (buyer) => {
          try {
            const res = await fetch(`${stack.api.url}/api/internal/payments/orders`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${buyer.token}`, 'x-internal-key': internalKey },
              body: JSON.stringify({ eventId, quantity: 1, phone: buyer.phone }),
            });
            const body = await res.json().catch(() => ({}));
            if (res.status !== 201 || !body.orderCode) {
              refused += 1;
              return undefined;
            }
            return { phone: buyer.phone, account: body.orderCode, amount: body.amount };
          } catch {
            networkErrors += 1;
            return undefined;
          }
        }),
      )
    ).filter(Boolean);
    console.log(`orders held: ${held.length} in ${((performance.now() - holdStarted) / 1000).toFixed(1)} s (refused ${refused}, network errors ${networkErrors})`);

    // The CPU of the payments alone: validation, confirmation, settlement and the ticket emails.
    const cpuMeter = await startCpuMeter(stack);
    const startedAt = performance.now();
    let completed = 0;
    let paymentFailures = 0;
    await Promise.all(
      held.map(async (order) => {
        try {
          const res = await fetch(`${stack.daraja.url}/simulator/menu/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...order, mode: 'normal' }) });
          const body = await res.json().catch(() => ({}));
          if (res.status === 200 && body.status === 'completed') completed += 1;
          else paymentFailures += 1;
        } catch {
          networkErrors += 1;
          paymentFailures += 1;
        }
      }),
    );
    const paidWithin = performance.now() - startedAt;
    // Settled when every order M-Pesa completed is paid (the confirmations go through the payment service's outbox).
    const paidOrders = async () => (await db.query(`SELECT count(*)::int AS n FROM orders WHERE event_id = $1 AND status = 'paid'`, [eventId])).rows[0].n;
    const deadline = performance.now() + 300_000;
    let settled = await paidOrders();
    while (settled < completed && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      settled = await paidOrders();
    }
    const seconds = (performance.now() - startedAt) / 1000;
    const mailsWritten = await waitForTicketEmails(stack, settled);
    const cpu = await cpuMeter.read();
    const { rows } = await db.query('SELECT count(*)::int AS n FROM tickets WHERE event_id = $1 AND voided_at IS NULL', [eventId]);
    const issued = rows[0].n;
    const oversold = Math.max(0, issued - SEATS);
    const rate = settled / seconds;
    const serverCpu = cpu.api + cpu.pay + cpu.pg;
    console.log(`load average after: ${loadAverage()} (API server, payment service, PostgreSQL, the simulator and these buyers share the machine)`);
    console.log(`menu payments completed at M-Pesa: ${completed} (answered within ${(paidWithin / 1000).toFixed(1)} s); failed: ${paymentFailures}`);
    console.log(`orders paid: ${settled} of ${held.length} in ${seconds.toFixed(1)} s = ${rate.toFixed(1)} payments/s`);
    console.log(`tickets in the database: ${issued} of ${SEATS} seats; oversold: ${oversold} (target 0); ticket emails written: ${mailsWritten}`);
    console.log(
      `CPU used: API ${cpu.api.toFixed(1)} s, payment service ${cpu.pay.toFixed(1)} s, PostgreSQL ~${cpu.pg.toFixed(1)} s; not counted: Daraja simulator ${cpu.daraja.toFixed(1)} s, bench client ${cpu.bench.toFixed(1)} s`,
    );
    console.log(`server-side CPU per Paybill payment (API + payment service + PostgreSQL, ticket emails included): ${((serverCpu / Math.max(settled, 1)) * 1000).toFixed(1)} ms`);
    if (held.length !== Math.min(BUYERS, SEATS) || completed !== held.length || settled !== held.length || issued !== settled || oversold > 0 || networkErrors > 0) fail();
  });
}

await runBenchWithAudit({ name: 'tukio_bench_checkout', buyers: BUYERS, seats: SEATS, simulatorDelayMs: SIMULATOR_DELAY_MS, typed: TYPED }, async (stack, fail) => {
  const { db, eventId } = stack;

  console.log(`${BUYERS} buyers, ${SEATS} seats${TYPED ? ', three ticket types and a promo code' : ''}, simulator delay ${SIMULATOR_DELAY_MS} ms, polling every ${POLL_MS} ms; load average before: ${loadAverage()} on ${os.cpus().length} cores`);
  const cpuMeter = await startCpuMeter(stack);
  const internalBefore = await internalRequests(stack);

  const sale = await runSale(stack, { pollMs: POLL_MS });
  const { confirmed, pushLatency, confirmLatency, serverErrors } = sale;

  const seconds = (sale.lastConfirmedAt - sale.startedAt) / 1000;
  // Each confirmed order's ticket email (QR codes rendered, written to the outbox without SMTP) is part of a
  // sale's cost: the CPU is read once they are all written (or after 120 s).
  const mailsStarted = performance.now();
  const mailsWritten = await waitForTicketEmails(stack, confirmed);
  const mailSeconds = (performance.now() - mailsStarted) / 1000;
  const cpu = await cpuMeter.read();
  const { rows } = await db.query('SELECT count(*)::int AS n FROM tickets WHERE event_id = $1', [eventId]);
  const issued = rows[0].n;
  const oversold = Math.max(0, issued - SEATS);
  const rate = confirmed / seconds;
  console.log(`load average after: ${loadAverage()} (API server, payment service, PostgreSQL and these buyers share the machine)`);
  console.log(`confirmed tickets: ${confirmed} in ${seconds.toFixed(1)} s = ${rate.toFixed(1)} tickets/s (target >= 50)`);
  console.log(`tickets in the database: ${issued} of ${SEATS} seats; oversold: ${oversold} (target 0)`);
  console.log(`sold-out refusals: ${sale.soldOut}; 5xx or dropped pushes: ${serverErrors}; other failures: ${sale.otherFailures}; network errors (retried polls included): ${sale.client.networkErrors}`);
  console.log(`stkPush latency p50 ${percentile(pushLatency, 50).toFixed(0)} ms, p99 ${percentile(pushLatency, 99).toFixed(0)} ms`);
  console.log(
    `push-to-confirmed p50 ${percentile(confirmLatency, 50).toFixed(0)} ms, p99 ${percentile(confirmLatency, 99).toFixed(0)} ms (includes the ${SIMULATOR_DELAY_MS} ms simulated PIN entry and ${POLL_MS} ms polling)`,
  );
  const serverCpu = cpu.api + cpu.pay + cpu.pg;
  const perTicketMs = (serverCpu / Math.max(confirmed, 1)) * 1000;
  console.log(
    `ticket emails: ${mailsWritten} written, the last ${mailSeconds.toFixed(1)} s after the last confirmation`,
  );
  console.log(
    `CPU used: API ${cpu.api.toFixed(1)} s, payment service ${cpu.pay.toFixed(1)} s, PostgreSQL ~${cpu.pg.toFixed(1)} s (backends still open); not counted: Daraja simulator ${cpu.daraja.toFixed(1)} s, bench client ${cpu.bench.toFixed(1)} s`,
  );
  console.log(
    `server-side CPU per confirmed ticket (API + payment service + PostgreSQL, ticket emails included): ${perTicketMs.toFixed(1)} ms (goal <= 9) -> about ${(2000 / perTicketMs).toFixed(0)} tickets/s if the services had the machine's 2 cores to themselves`,
  );
  console.log(
    `confirmPayment requests per confirmed ticket: ${(sale.confirmRequests / Math.max(confirmed, 1)).toFixed(2)} (${process.env.FOLLOW ?? (process.env.CHECKOUT_VIA === 'adapter' ? 'poll' : 'push')}: ${(process.env.FOLLOW ?? (process.env.CHECKOUT_VIA === 'adapter' ? 'poll' : 'push')) === 'push' ? 'the result pushed on the /payments socket, then one confirm' : `polled every ${POLL_MS} ms`})`,
  );
  const internalPerTicket = ((await internalRequests(stack)) - internalBefore) / confirmed;
  console.log(`internal requests (between the API server and the payment service, either way) per confirmed ticket: ${internalPerTicket.toFixed(2)} (goal <= 2; checkout through ${process.env.CHECKOUT_VIA === 'adapter' ? "the payment service's /api" : "the API server's /pay"})`);
  if (rate < 50 || oversold > 0 || serverErrors > 0 || issued !== confirmed || confirmed !== Math.min(SEATS, BUYERS)) fail();
});
