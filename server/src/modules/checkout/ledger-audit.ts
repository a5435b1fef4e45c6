import type { Database } from '../../db/database.js';
import { createLedger } from '../ledger/index.js';
import { createPaybillRepository } from './paybill.repository.js';
import { createRefundsRepository } from './refunds.repository.js';

interface Finding {
  kind: string;
  detail: string;
}

/** What the provider reports as completed, in the audit's input. */
interface ProviderBooks {
  payments: Array<{ amount: number }>;
  refunds: Array<{ amount: number }>;
  payouts: Array<{ amount: number }>;
}

/** Findings listed per check at most; the count of the rest is said in one more line. */
const LIMIT = 100;

/** Provider amounts may carry decimals ("10.00"): compared in cents. */
const cents = (amount: number) => Math.round(amount * 100);

/**
 * The audit's ledger checks (docs/decisions/ledger.md, "Audit"):
 * - `ledger-unbalanced`: a transaction whose entries do not sum to zero, or has fewer than two (the triggers refuse
 *   them: this proves nothing got past them);
 * - `ledger-clearing`: the clearing account is not what M-Pesa's books say the shortcode holds: payments it reports
 *   completed minus refunds and organiser payouts it reports paid (M-Pesa's charges leave clearing untouched,
 *   docs/decisions/fees.md);
 * - `ledger-money-in`: money in (successful payments) is not refunds paid + payouts paid + fees + M-Pesa charges +
 *   balances still owed (to organisers, in flight to them, and to buyers): every shilling received is somewhere. Fees
 *   are the fee account's credit (net of the charges Tukio bears, payouts' too), charges the charges account's credit
 *   (docs/decisions/fees.md);
 * - `ledger-payment` / `ledger-refund`: a payment or refund whose ledger postings do not match its row (a refund
 *   charges the organiser its amount less its fee share, and takes that share back from the fee account);
 * - `ledger-unmatched`: Paybill payments waiting for an administrator do not add up to the unmatched receipts account;
 * - `ledger-fee`: a payment whose posting credited the fee account with anything but its order's fee.
 */
export async function auditLedgerBooks(db: Database, provider: ProviderBooks): Promise<Finding[]> {
  const ledger = createLedger(db);
  const repo = createRefundsRepository(db);
  const found: Finding[] = [];
  const flag = (kind: string, detail: string) => found.push({ kind, detail });

  for (const row of await ledger.unbalanced(LIMIT)) flag('ledger-unbalanced', `ledger transaction ${row.id} (${row.kind}) has ${row.legs} entries summing to ${row.total}`);

  const balances = await ledger.balances();
  const payouts = await ledger.payoutsPaid();
  const providerIn = provider.payments.reduce((sum, payment) => sum + cents(payment.amount), 0);
  const providerOut = provider.refunds.reduce((sum, refund) => sum + cents(refund.amount), 0);
  const paidOut = provider.payouts.reduce((sum, payout) => sum + cents(payout.amount), 0);
  if (providerIn - providerOut - paidOut !== balances.mpesa_clearing * 100) {
    flag(
      'ledger-clearing',
      `the clearing account holds ${balances.mpesa_clearing}, but M-Pesa reports ${providerIn / 100} in payments, ${providerOut / 100} in refunds paid ` +
        `and ${paidOut / 100} in organiser payouts (${(providerIn - providerOut - paidOut) / 100})`,
    );
  }

  const { moneyIn, refundsPaid } = await repo.moneyTotals();
  const charges = -balances.mpesa_charges;
  const fees = -balances.platform_fees;
  const owedToOrganisers = -balances.organiser_payable - balances.payouts_in_flight;
  const owedToBuyers = -balances.refunds_payable;
  // Paybill payments no order claims yet are money in too, held until an administrator places them.
  const unmatched = -balances.unmatched_receipts;
  const waiting = await createPaybillRepository(db).waitingTotal();
  if (waiting !== unmatched) flag('ledger-unmatched', `unmatched Paybill payments waiting add up to ${waiting}, but the unmatched receipts account holds ${unmatched}`);
  // Those an administrator refunded instead came in too; their refunds are among the paid or owed.
  const received = moneyIn + waiting + (await createPaybillRepository(db).refundedTotal());
  const accounted = refundsPaid + payouts + fees + charges + owedToOrganisers + owedToBuyers + unmatched;
  if (received !== accounted) {
    flag(
      'ledger-money-in',
      `money in is ${received}, but refunds paid ${refundsPaid} + payouts ${payouts} + fees ${fees} + charges ${charges} + owed to organisers ${owedToOrganisers} + owed to buyers ${owedToBuyers} + unmatched ${unmatched} = ${accounted}`,
    );
  }

  for (const payment of await repo.paymentsOffLedger(LIMIT)) {
    flag('ledger-payment', `payment ${payment.name} (${payment.status}, ${payment.amount}) put ${payment.posted} into the clearing account, not ${payment.status === 'success' ? payment.amount : 0}`);
  }
  for (const refund of await repo.refundsOffLedger(LIMIT)) {
    flag(
      'ledger-refund',
      `refund ${refund.refundId} (${refund.status}, ${refund.amount}, fee share ${refund.feeAmount}) charged the organiser ${refund.charged}, the fees ${refund.feeReturned} and the unmatched receipts ${refund.fromUnmatched} and leaves ${refund.stillOwed} owed to the buyer`,
    );
  }
  for (const payment of await repo.feesOffLedger(LIMIT)) flag('ledger-fee', `payment ${payment.name} posted a fee of ${payment.posted}, but its order's fee is ${payment.fee}`);
  return found;
}
