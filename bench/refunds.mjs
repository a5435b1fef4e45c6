// bench/refunds.mjs — the checkout bench's sale (the event refunds in full until its start), then 10% of the
// buyers who paid cancel their ticket (POST /api/tickets/cancel, all at once) and the organiser cancels the event
// (POST /api/events/:id/cancel): every paid order gets a refund, which the API server's refunds job sends through
// the payment service to the Daraja simulator (reversals of the STK receipts) until each is `succeeded`.
// Prints refunds, refunds per second through the simulator, time to drain, then runs `npm run audit:payments`
// against the stack. Exits 1 on any discrepancy or any refund not succeeded.
// Usage: node bench/refunds.mjs   (needs PostgreSQL on 127.0.0.1:5432)
// Knobs: BUYERS=1000 SEATS=900 SIMULATOR_DELAY_MS=200 POLL_MS=3000 (the sale, as in checkout.mjs); SELF_CANCEL=0.1;
// REFUND_POLL_MS=100 REFUND_RESULT_WAIT_MS=10000 (the refunds job's period and the wait before it asks
// Transaction Status; defaults 15 s and 5 min) DRAIN_TIMEOUT_S=300
import os from 'node:os';
import { loadAverage, runSale, runBenchWithAudit } from './checkout-stack.mjs';

const BUYERS = Number(process.env.BUYERS ?? 1000);
const SEATS = Number(process.env.SEATS ?? 900);
const SIMULATOR_DELAY_MS = Number(process.env.SIMULATOR_DELAY_MS ?? 200);
const POLL_MS = Number(process.env.POLL_MS ?? 3000);
const SELF_CANCEL = Number(process.env.SELF_CANCEL ?? 0.1);
const REFUND_POLL_MS = Number(process.env.REFUND_POLL_MS ?? 100);
const REFUND_RESULT_WAIT_MS = Number(process.env.REFUND_RESULT_WAIT_MS ?? 10_000);
const DRAIN_TIMEOUT_S = Number(process.env.DRAIN_TIMEOUT_S ?? 300);

await runBenchWithAudit({
    name: 'tukio_bench_refunds',
    buyers: BUYERS,
    seats: SEATS,
    simulatorDelayMs: SIMULATOR_DELAY_MS,
    apiEnv: { REFUND_POLL_MS: String(REFUND_POLL_MS), REFUND_RESULT_WAIT_MS: String(REFUND_RESULT_WAIT_MS) },
  }, async (stack, fail) => {
  const { db, eventId } = stack;
  console.log(
    `${BUYERS} buyers, ${SEATS} seats, simulator delay ${SIMULATOR_DELAY_MS} ms; refunds job every ${REFUND_POLL_MS} ms; load average before: ${loadAverage()} on ${os.cpus().length} cores`,
  );

  // Holders may cancel with a full refund until the start (the default policy refunds nothing).
  await db.query(`UPDATE events SET refund_policy = 'full', refund_until_hours = 0 WHERE id = $1`, [eventId]);

  const sale = await runSale(stack, { pollMs: POLL_MS });
  console.log(`sale: ${sale.confirmed} paid in ${((sale.lastConfirmedAt - sale.startedAt) / 1000).toFixed(1)} s, ${sale.soldOut} sold-out refusals, ${sale.serverErrors} 5xx`);
  if (sale.confirmed !== Math.min(SEATS, BUYERS) || sale.serverErrors > 0) fail();

  // SELF_CANCEL of the buyers who paid (every tenth one by default) cancel their ticket, all at once.
  const started = performance.now();
  const selfCancelling = sale.paid.filter((_, i) => i % Math.round(1 / SELF_CANCEL) === 0).slice(0, Math.round(sale.confirmed * SELF_CANCEL));
  const { rows: held } = await db.query('SELECT id, user_id FROM tickets WHERE event_id = $1 AND user_id = ANY($2)', [eventId, selfCancelling.map((buyer) => buyer.id)]);
  const ticketOf = new Map(held.map((row) => [row.user_id, row.id]));
  const selfCancels = await Promise.all(
    selfCancelling.map((buyer) => sale.client.post(`${stack.api.url}/api/tickets/cancel`, buyer.token, { ticketIds: [ticketOf.get(buyer.id)] })),
  );
  const selfCancelMs = performance.now() - started;
  const selfCancelled = selfCancels.filter((answer) => answer.status === 200).length;
  const refused = selfCancels.filter((answer) => answer.status !== 200).map((answer) => `${answer.status} ${answer.body.msg ?? ''}`);
  if (refused.length > 0) fail();

  // The organiser cancels: one transaction voids every ticket left and writes a refund per paid order not refunded yet.
  const cancelStarted = performance.now();
  const cancel = await sale.client.post(`${stack.api.url}/api/events/${eventId}/cancel`, stack.organiserToken, { reason: 'The bench cancels the concert.' });
  const cancelMs = performance.now() - cancelStarted;
  if (cancel.status !== 200) throw new Error(`POST /api/events/:id/cancel answered ${cancel.status} ${JSON.stringify(cancel.body)}`);

  // Drained when no refund is due or sent any more (succeeded, or failed for good).
  const byStatus = async () => {
    const { rows } = await db.query('SELECT status, count(*)::int AS n FROM refunds WHERE event_id = $1 GROUP BY status', [eventId]);
    return Object.fromEntries(rows.map((row) => [row.status, row.n]));
  };
  let statuses = await byStatus();
  const deadline = Date.now() + DRAIN_TIMEOUT_S * 1000;
  while ((statuses.due ?? 0) + (statuses.sent ?? 0) > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    statuses = await byStatus();
  }
  const drainSeconds = (performance.now() - started) / 1000;

  // Through the simulator: from the first request sent to the last result recorded, in the database's clock;
  // all refunds, and those of the event's cancellation alone (none can be sent before its transaction commits).
  const throughput = async (reason) => {
    const { rows } = await db.query(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE a.status = 'succeeded')::int AS succeeded,
              coalesce(extract(epoch FROM max(a.finished_at) - min(a.sent_at)), 0)::float AS seconds
         FROM refund_attempts a JOIN refunds r ON r.id = a.refund_id WHERE r.event_id = $1 AND ($2::text IS NULL OR r.reason = $2)`,
      [eventId, reason],
    );
    return { ...rows[0], perSecond: (rows[0].succeeded / rows[0].seconds).toFixed(1) };
  };
  const attempts = await throughput(null);
  const afterCancel = await throughput('event_cancelled');
  const { rows: kinds } = await db.query('SELECT reason, method, count(*)::int AS n, sum(amount)::int AS shillings FROM refunds WHERE event_id = $1 GROUP BY reason, method', [eventId]);
  const refunds = Object.values(statuses).reduce((sum, n) => sum + n, 0);
  const succeeded = statuses.succeeded ?? 0;
  console.log(`load average after: ${loadAverage()}`);
  console.log(`self-cancel: ${selfCancelled} of ${selfCancelling.length} buyers in ${selfCancelMs.toFixed(0)} ms (all at once)${refused.length > 0 ? `; refused: ${[...new Set(refused)].join(', ')}` : ''}`);
  console.log(`cancel request: ${cancelMs.toFixed(0)} ms (${JSON.stringify({ ticketsVoided: cancel.body.ticketsVoided, ordersReleased: cancel.body.ordersReleased, refunds: cancel.body.refunds })})`);
  console.log(`refunds: ${refunds} (${kinds.map((k) => `${k.n} ${k.reason} by ${k.method}, KES ${k.shillings}`).join('; ')}); by status ${JSON.stringify(statuses)}`);
  console.log(`attempts: ${attempts.n} (${attempts.succeeded} succeeded) for ${refunds} refunds`);
  console.log(
    `through the simulator: ${attempts.succeeded} in ${attempts.seconds.toFixed(1)} s = ${attempts.perSecond} refunds/s (first request sent to last result recorded); ` +
      `the cancellation's ${afterCancel.succeeded} alone: ${afterCancel.seconds.toFixed(1)} s = ${afterCancel.perSecond} refunds/s`,
  );
  console.log(`time to drain: ${drainSeconds.toFixed(1)} s from the first self-cancel to every refund final`);
  if (refunds !== sale.confirmed || succeeded !== refunds) fail();
});
