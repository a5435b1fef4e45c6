import type { auditRequest } from '@tukio/shared/internal-refunds';
import type { z } from 'zod';
import type { Database } from '../../db/database.js';
import { auditLedgerBooks } from './ledger-audit.js';
import { auditSuccessClaims } from './payments-audit.js';
import { createPaybillRepository } from './paybill.repository.js';
import { createRefundsRepository } from './refunds.repository.js';

type AuditInput = z.output<typeof auditRequest>;

/** The payouts module's check of M-Pesa's organiser payouts (given by the composition: payouts depends on checkout). */
export type PayoutsAudit = (reported: AuditInput['payouts']) => Promise<Discrepancy[]>;

export interface Discrepancy {
  kind: string;
  detail: string;
}

/** Provider amounts may carry decimals ("10.00"); the ledger keeps whole shillings. */
const sameAmount = (provider: number, shillings: number) => Math.round(provider * 100) === shillings * 100;

/**
 * POST /api/internal/audit: what M-Pesa says was completed, against the ledger (docs/decisions/refunds.md).
 * - Each completed payment is exactly one successful payment row of the same amount, whose order is paid
 *   with its tickets (as many as ordered, counting those its holder cancelled under the refund policy and
 *   a transferred one's replacement once; none voided by a cancelled event); otherwise live refunds (due,
 *   sent or succeeded) must cover all of it.
 * - Each succeeded refund matches one completed provider refund (same TransactionID, amount and kind),
 *   and each provider refund one succeeded refund; a second success for one refund is money paid twice.
 * - No payment is refunded more than it paid, nor refunded without having succeeded.
 * - Each organiser payout M-Pesa made is one paid payout attempt here, and each paid attempt one of M-Pesa's
 *   (the payouts module's audit, docs/decisions/payouts.md).
 * - The ledger balances, its clearing account holds what M-Pesa's books say, and every payment and refund is
 *   posted as its row says (ledger-audit.ts).
 * - No order's self-cancel refunds (less an on-top order's fee share) exceed what its cancelled tickets were paid (each ticket's own price),
 *   no ticket type holds more valid tickets than its capacity, and a transferred ticket's replacement has
 *   the order, type and price of the ticket it replaced.
 */
export async function auditLedger(db: Database, input: AuditInput, auditPayouts: PayoutsAudit) {
  const repo = createRefundsRepository(db);
  const discrepancies: Discrepancy[] = [];
  const flag = (kind: string, detail: string) => discrepancies.push({ kind, detail });

  // ---- payments ----
  const receipts = [...new Set(input.payments.map((payment) => payment.receipt))];
  const checkoutIds = [...new Set(input.payments.flatMap((payment) => (payment.checkoutRequestId ? [payment.checkoutRequestId] : [])))];
  const found = await repo.paymentsMatching(receipts, checkoutIds);
  // Receipts and CheckoutRequestIDs are unique in the payments table: at most one row each.
  const byReceipt = new Map(found.byReceipt.map((row) => [row.receipt!, row]));
  const byCheckout = new Map(found.byCheckout.map((row) => [row.checkoutRequestId, row]));
  // A success confirmed only by a status query has no receipt on our side: its CheckoutRequestID finds it.
  const matched = input.payments.map((reported) => ({
    reported,
    row: byReceipt.get(reported.receipt) ?? (reported.checkoutRequestId ? byCheckout.get(reported.checkoutRequestId) : undefined),
  }));
  const unplaced = new Set(await createPaybillRepository(db).unplacedTransIds(matched.flatMap(({ reported, row }) => (row ? [] : [reported.receipt]))));
  const paymentIds = matched.flatMap(({ row }) => (row ? [row.id] : []));
  const orders = new Map((await repo.ordersWithTickets([...new Set(matched.flatMap(({ row }) => (row ? [row.orderId] : [])))])).map((order) => [order.id, order]));
  const covered = new Map((await repo.coverage(paymentIds)).map((row) => [row.paymentId, row.covered]));
  const seen = new Set<string>();
  /** Lapsed reservations: everything their payments brought but the cancellation fee goes back. */
  const lapsed = new Map<string, { paid: number; refunded: number; kept: number }>();
  for (const { reported, row } of matched) {
    const name = `payment ${reported.receipt}`;
    // A Paybill payment no order claims waits for an administrator, held in the ledger (ledger-audit.ts checks it), or
    // was refunded whole by one (its refund is checked below with the others).
    if (!row && unplaced.has(reported.receipt)) continue;
    if (!row) {
      flag('payment-unknown', `${name} of ${reported.amount} from ${reported.phone || 'an unknown phone'} is not recorded`);
      continue;
    }
    if (seen.has(row.id)) {
      flag('payment-duplicated', `${name} is reported twice by the provider`);
      continue;
    }
    seen.add(row.id);
    if (row.status !== 'success') {
      flag('payment-not-settled', `${name} completed at the provider but is ${row.status} here`);
      continue;
    }
    if (!sameAmount(reported.amount, row.amount)) flag('payment-amount', `${name}: the provider took ${reported.amount}, the payment is ${row.amount}`);
    const order = orders.get(row.orderId);
    const refunded = covered.get(row.id) ?? 0;
    // A ticket its holder cancelled was refunded by the policy (or not at all, for no refund): the refund
    // rows below are checked on their own. A transferred one is replaced on the same order.
    const kept = order?.status === 'paid' && order.valid + order.selfCancelled === order.quantity && order.voided === 0;
    // A reservation's payments are held towards its price (docs/decisions/instalments.md); a lapsed one's are checked per order below.
    if (kept || order?.status === 'reserved') continue;
    if (order?.status === 'lapsed') {
      const sums = lapsed.get(order.id) ?? { paid: 0, refunded: 0, kept: Math.min(order.instalmentPaid, order.instalmentCancellationFee ?? 0) };
      lapsed.set(order.id, { ...sums, paid: sums.paid + row.amount, refunded: sums.refunded + refunded });
      continue;
    }
    if (order?.status === 'paid' && order.voided === 0 && order.valid + order.selfCancelled !== order.quantity) {
      const held = `${order.valid}${order.selfCancelled ? ` and ${order.selfCancelled} cancelled by the holder` : ''}`;
      flag('tickets-count', `${name}: order ${order.id} is paid for ${order.quantity} tickets but holds ${held}`);
    } else if (refunded !== row.amount) {
      const what = order?.status === 'paid' ? `${order.voided} of its tickets are void` : `its order is ${order?.status ?? 'missing'}`;
      flag('payment-not-refunded', `${name}: ${what}, but refunds cover ${refunded} of ${row.amount}`);
    }
  }

  for (const [orderId, sums] of lapsed) {
    if (sums.refunded !== sums.paid - sums.kept) flag('payment-not-refunded', `order ${orderId}: its reservation lapsed, but refunds cover ${sums.refunded} of ${sums.paid} (${sums.kept} kept as the cancellation fee)`);
  }

  // ---- refunds ----
  const succeeded = await repo.succeeded();
  const reportedByTx = new Map<string, (typeof input.refunds)[number]>();
  for (const reported of input.refunds) {
    if (reportedByTx.has(reported.transactionId)) flag('refund-duplicated', `refund ${reported.transactionId} is reported twice by the provider`);
    reportedByTx.set(reported.transactionId, reported);
  }
  const ours = new Map(succeeded.map((refund) => [refund.receipt!, refund]));
  for (const refund of succeeded) {
    const reported = reportedByTx.get(refund.receipt!);
    if (!reported) flag('refund-missing-at-provider', `refund ${refund.id} succeeded as ${refund.receipt}, which the provider does not report`);
    else if (!sameAmount(reported.amount, refund.amount)) flag('refund-amount', `refund ${refund.id} (${refund.receipt}): the provider paid ${reported.amount}, the refund is ${refund.amount}`);
    else if (refund.method && reported.kind !== refund.method) flag('refund-kind', `refund ${refund.id} (${refund.receipt}) was a ${refund.method}, the provider reports a ${reported.kind}`);
  }
  const unmatched = input.refunds.filter((reported) => !ours.has(reported.transactionId));
  // A TransactionID an attempt recorded while its refund names another is money paid twice: reported just below.
  const recorded = await repo.recordedTransactionIds(unmatched.map((reported) => reported.transactionId));
  for (const reported of unmatched) {
    if (!recorded.has(reported.transactionId)) flag('refund-unknown', `the provider paid ${reported.amount} as ${reported.transactionId} (${reported.originatorConversationId}), which no refund records`);
  }
  for (const extra of await repo.extraSuccesses()) {
    flag('refund-paid-twice', `refund ${extra.refundId} succeeded as ${extra.receipt ?? 'nothing'} and again as ${extra.transactionId} (${extra.originatorConversationId})`);
  }
  for (const over of await repo.overRefunded()) {
    flag(
      'refund-exceeds-payment',
      over.status === 'success' ? `payment ${over.paymentId} paid ${over.amount} but its refunds take ${over.refunded}` : `payment ${over.paymentId} is ${over.status} but has refunds of ${over.refunded}`,
    );
  }
  // Success claims M-Pesa does not stand behind (the checkout module's own check).
  const claims = await auditSuccessClaims(db, input.payments);
  discrepancies.push(...claims.discrepancies);

  // ---- tickets: what each one was paid and which type's seat it holds ----
  for (const over of await repo.refundsBeyondTickets()) {
    flag('refund-exceeds-tickets', `order ${over.orderId}: its holders cancelled tickets paid ${over.cancelled} but were refunded ${over.refunded}`);
  }
  for (const type of await repo.typesOverCapacity()) {
    flag('type-over-capacity', `ticket type ${type.typeId} (${type.name}) of event ${type.eventId} has ${type.valid} valid tickets for ${type.capacity} seats`);
  }
  for (const changed of await repo.transfersChanged()) {
    flag('transfer-changed-ticket', `ticket ${changed.id} replaced ticket ${changed.replaced} with another order, type or price`);
  }
  // ---- organiser payouts ----
  discrepancies.push(...(await auditPayouts(input.payouts)));
  // ---- the double-entry ledger against the rows it records and against M-Pesa's books ----
  discrepancies.push(...(await auditLedgerBooks(db, input)));
  return { discrepancies, notices: claims.notices, checked: { payments: input.payments.length, refunds: input.refunds.length, payouts: input.payouts.length } };
}
