import type { Executor } from '../../db/database.js';
import { createPaymentsRepository } from './payments.repository.js';

/** What the provider reports as completed STK payments (the audit's input). */
interface ReportedPayment {
  receipt: string;
  checkoutRequestId?: string | undefined;
}

/**
 * The audit's check of success claims M-Pesa does not stand behind (docs/decisions/payments.md, "Trusting callbacks"):
 * - `payment-not-taken`: a payment recorded as successful from a callback alone (no STK query confirmed it) that the
 *   provider's books do not report, by receipt or CheckoutRequestID: tickets issued for money never taken.
 * - `payment-contradicted`: every success callback M-Pesa's own answer contradicted (the payment then took M-Pesa's
 *   status and its tickets were voided): evidence that someone knows the callback URL's secret.
 */
export async function auditSuccessClaims(db: Executor, reported: ReportedPayment[]): Promise<Array<{ kind: string; detail: string }>> {
  const repo = createPaymentsRepository(db);
  const receipts = new Set(reported.map((payment) => payment.receipt));
  const checkoutIds = new Set(reported.flatMap((payment) => (payment.checkoutRequestId ? [payment.checkoutRequestId] : [])));
  const found: Array<{ kind: string; detail: string }> = [];
  for (const payment of await repo.allUnconfirmedSuccesses()) {
    if ((payment.receipt && receipts.has(payment.receipt)) || checkoutIds.has(payment.checkoutRequestId)) continue;
    found.push({
      kind: 'payment-not-taken',
      detail: `payment ${payment.receipt ?? payment.checkoutRequestId} of ${payment.amount} from ${payment.phone} is recorded as successful from a callback alone, and the provider does not report it`,
    });
  }
  for (const row of await repo.contradictions()) {
    const claim = row.contradiction;
    found.push({
      kind: 'payment-contradicted',
      detail:
        `a success callback for ${row.checkoutRequestId} (receipt ${claim.claimedReceipt ?? 'none'}, ${claim.claimedAmount ?? row.amount} from ${row.phone}) ` +
        `was contradicted by M-Pesa (${claim.providerResultCode} ${claim.providerResultDesc}) on ${claim.createdAt.toISOString()}; ` +
        `the payment is ${row.paymentStatus} and ${claim.ticketsVoided} tickets were voided`,
    });
  }
  return found;
}
