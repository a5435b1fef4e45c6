import type { Executor } from '../../db/database.js';
import { createPaymentsRepository } from './payments.repository.js';

interface Finding {
  kind: string;
  detail: string;
}

/** What the provider reports as completed STK payments (the audit's input). */
interface ReportedPayment {
  receipt: string;
  checkoutRequestId?: string | undefined;
}

/**
 * The audit's check of success claims M-Pesa does not stand behind (docs/decisions/payments.md, "Trusting callbacks"):
 * - `payment-not-taken`: a payment recorded as successful from a callback alone (no STK query confirmed it) that the
 *   provider's books do not report, by receipt or CheckoutRequestID: tickets issued for money never taken.
 * - `payment-contradicted`: a success callback M-Pesa's own answer contradicted whose payment still stands as a success.
 * A contradiction already handled (the payment took M-Pesa's status, its tickets were voided) leaves the books agreeing
 * with M-Pesa's, so it is a notice, not a discrepancy: still listed on every audit, as evidence that someone knows the
 * callback URL's secret.
 */
export async function auditSuccessClaims(db: Executor, reported: ReportedPayment[]): Promise<{ discrepancies: Finding[]; notices: Finding[] }> {
  const repo = createPaymentsRepository(db);
  const receipts = new Set(reported.map((payment) => payment.receipt));
  const checkoutIds = new Set(reported.flatMap((payment) => (payment.checkoutRequestId ? [payment.checkoutRequestId] : [])));
  const found: Finding[] = [];
  const notices: Finding[] = [];
  for (const payment of await repo.allUnconfirmedSuccesses()) {
    if ((payment.receipt && receipts.has(payment.receipt)) || checkoutIds.has(payment.checkoutRequestId)) continue;
    found.push({
      kind: 'payment-not-taken',
      detail: `payment ${payment.receipt ?? payment.checkoutRequestId} of ${payment.amount} from ${payment.phone} is recorded as successful from a callback alone, and the provider does not report it`,
    });
  }
  for (const row of await repo.contradictions()) {
    const claim = row.contradiction;
    (row.paymentStatus === 'success' ? found : notices).push({
      kind: 'payment-contradicted',
      detail:
        `a success callback for ${row.checkoutRequestId} (receipt ${claim.claimedReceipt ?? 'none'}, ${claim.claimedAmount ?? row.amount} from ${row.phone}) ` +
        `was contradicted by M-Pesa (${claim.providerResultCode} ${claim.providerResultDesc}) on ${claim.createdAt.toISOString()}; ` +
        `the payment is ${row.paymentStatus} and ${claim.ticketsVoided} tickets were voided`,
    });
  }
  return { discrepancies: found, notices };
}
