import type { Database, Executor } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { requireOwner } from '../../lib/auth.js';
import type { AuthUser } from '../auth/index.js';
import { canSeeEvent, findEvent } from '../events/index.js';
import { createLedgerRepository, type LedgerAccount, type LedgerLeg, type LedgerPosting } from './ledger.repository.js';
import { LEDGER_ACCOUNTS } from './ledger.schema.js';

/** A payout's share of one event's organiser payable: positive pays what the event earned, negative recovers what it owes. */
export interface PayoutLeg {
  eventId: string;
  amount: number;
}

/** What a payout posting needs: its id and its legs (their sum is the payout's amount). */
export interface LedgerPayout {
  id: string;
  legs: PayoutLeg[];
}

/**
 * What a posting needs of a payment or a refund: its id, the event it belongs to and its whole shillings, with the
 * platform fee's part of them (docs/decisions/fees.md; none when absent).
 */
export interface LedgerMoney {
  id: string;
  /** None for a refund of a Paybill payment no order claims (docs/decisions/paybill.md). */
  eventId: string | null;
  amount: number;
  feeAmount?: number | undefined;
}

/** Drops the legs of nothing (an entry is never 0: a fee of 0, or an absorbed fee that took the whole price). */
const nonZero = (legs: LedgerLeg[]) => legs.filter((leg) => leg.amount !== 0);

export const ledgerMessages = {
  eventNotFound: 'Event not found.',
  notOwner: "Only the organiser of this event or an administrator can see its ledger.",
  sameAccount: 'An adjustment moves money between two different accounts.',
  payableNeedsEvent: "An adjustment of an organiser's payable names the event (eventId).",
} as const;

/**
 * The postings (docs/decisions/ledger.md), each one balanced transaction, written inside the caller's database
 * transaction (the one that settles the payment or creates or pays the refund), so money rows and their ledger
 * entries commit together or not at all. A repeated post of the same payment or refund adds nothing.
 * Debit positive, credit negative:
 * - paymentReceived: the shortcode's clearing account up; the platform fee to the fee account and the rest to the
 *   event's organiser payable (what we owe them); and M-Pesa's receiving charge, which Tukio bears out of its fee
 *   revenue: the fee account debited, the charges account credited (charges M-Pesa takes, docs/decisions/fees.md);
 * - paymentContradicted: the exact reverse of what the payment posted, for a success M-Pesa's own answer contradicted;
 * - refundsOwed: the buyer is owed: the fee's share out of the fee account, the rest out of the organiser payable,
 *   refunds payable up;
 * - refundPaid: M-Pesa paid it: refunds payable down, clearing down;
 * - unmatchedReceived / unmatchedPlaced: a Paybill payment no order claims is held in `unmatched_receipts` until an
 *   administrator places it (then it posts as its order's payment); unmatchedRefundOwed: or refunds it (unmatched
 *   receipts down, refunds payable up; then refundPaid).
 * A refund that fails for good posts nothing: it is still owed until an administrator retries it.
 * Payouts (docs/decisions/payouts.md), `payouts_in_flight` being what is owed to organisers and on its way:
 * - payoutMade: per event of the payout, its organiser payable debited by its share (credited for a share
 *   recovering a negative balance) and payouts in flight credited as much (for that event);
 * - payoutPaid: per event, payouts in flight debited and clearing credited; M-Pesa's charge for it is borne by
 *   Tukio as the receiving charges are: the fee account debited, the charges account credited (no event);
 * - payoutFailed: the exact reverse of payoutMade (the money is the organiser's payable again).
 */
export function createLedger(executor: Executor) {
  const repo = createLedgerRepository(executor);
  /** A payout's legs, each event's share debited to one account and credited to the other (so every event's entries balance). */
  const perEvent = (payout: LedgerPayout, debit: LedgerAccount, credit: LedgerAccount): LedgerLeg[] =>
    payout.legs
      .filter((leg) => leg.amount !== 0)
      .flatMap((leg) => [
        { account: debit, amount: leg.amount, eventId: leg.eventId },
        { account: credit, amount: -leg.amount, eventId: leg.eventId },
      ]);
  const owed = (refund: LedgerMoney): LedgerPosting => ({
    kind: 'refund',
    refundId: refund.id,
    legs: nonZero([
      { account: 'organiser_payable', amount: refund.amount - (refund.feeAmount ?? 0), eventId: refund.eventId },
      { account: 'platform_fees', amount: refund.feeAmount ?? 0, eventId: refund.eventId },
      { account: 'refunds_payable', amount: -refund.amount, eventId: refund.eventId },
    ]),
  });

  return {
    /** `mpesaCharge`: what M-Pesa charges the business to receive it (fees/mpesa-tariff.ts). */
    async paymentReceived(payment: LedgerMoney & { mpesaCharge?: number | undefined }): Promise<void> {
      const fee = payment.feeAmount ?? 0;
      const charge = payment.mpesaCharge ?? 0;
      await repo.post([
        {
          kind: 'payment',
          paymentId: payment.id,
          legs: nonZero([
            { account: 'mpesa_clearing', amount: payment.amount, eventId: payment.eventId },
            { account: 'platform_fees', amount: -fee, eventId: payment.eventId },
            { account: 'organiser_payable', amount: -(payment.amount - fee), eventId: payment.eventId },
            { account: 'platform_fees', amount: charge, eventId: payment.eventId },
            { account: 'mpesa_charges', amount: -charge, eventId: payment.eventId },
          ]),
        },
      ]);
    },

    /**
     * A Paybill payment no order claims (docs/decisions/paybill.md): the shortcode holds it, owed to nobody yet
     * (`unmatched_receipts`). `memo` names its M-Pesa receipt; posted once, with the unmatched row.
     */
    async unmatchedReceived(unmatched: { transId: string; amount: number }): Promise<void> {
      await repo.post([
        {
          kind: 'unmatched_payment',
          memo: unmatched.transId,
          legs: [
            { account: 'mpesa_clearing', amount: unmatched.amount },
            { account: 'unmatched_receipts', amount: -unmatched.amount },
          ],
        },
      ]);
    },

    /** An administrator placed it: out of `unmatched_receipts` again, before it is posted as the order's payment. */
    async unmatchedPlaced(unmatched: { transId: string; amount: number }): Promise<void> {
      await repo.post([
        {
          kind: 'unmatched_placed',
          memo: unmatched.transId,
          legs: [
            { account: 'unmatched_receipts', amount: unmatched.amount },
            { account: 'mpesa_clearing', amount: -unmatched.amount },
          ],
        },
      ]);
    },

    /**
     * An administrator refunds an unmatched payment instead of placing it: out of `unmatched_receipts` into refunds
     * payable (no event, no organiser, no fee), then paid like any refund (`refundPaid`). Posted once per refund.
     */
    async unmatchedRefundOwed(refund: { id: string; amount: number }): Promise<void> {
      await repo.post([
        {
          kind: 'refund',
          refundId: refund.id,
          legs: [
            { account: 'unmatched_receipts', amount: refund.amount },
            { account: 'refunds_payable', amount: -refund.amount },
          ],
        },
      ]);
    },

    /** Every leg the payment's posting wrote, reversed (read from the ledger, so a fee or tariff changed since cannot skew it). */
    async paymentContradicted(payment: Pick<LedgerMoney, 'id'>): Promise<void> {
      await repo.reversePayment(payment.id);
    },

    /** Refunds just created (one, or an event cancellation's every one): one statement whatever their number. */
    async refundsOwed(refunds: LedgerMoney[]): Promise<void> {
      // Chunked so a very large cancellation stays well under PostgreSQL's 65,535 parameters per statement.
      for (let at = 0; at < refunds.length; at += 2000) await repo.post(refunds.slice(at, at + 2000).map(owed));
    },

    async refundPaid(refund: LedgerMoney): Promise<void> {
      await repo.post([
        {
          kind: 'refund_paid',
          refundId: refund.id,
          legs: [
            { account: 'refunds_payable', amount: refund.amount, eventId: refund.eventId },
            { account: 'mpesa_clearing', amount: -refund.amount, eventId: refund.eventId },
          ],
        },
      ]);
    },

    async payoutMade(payout: LedgerPayout): Promise<void> {
      await repo.post([{ kind: 'payout', payoutId: payout.id, legs: perEvent(payout, 'organiser_payable', 'payouts_in_flight') }]);
    },

    async payoutPaid(payout: LedgerPayout, charge: number): Promise<void> {
      const chargeLegs: LedgerLeg[] = charge > 0 ? [{ account: 'platform_fees', amount: charge }, { account: 'mpesa_charges', amount: -charge }] : [];
      await repo.post([{ kind: 'payout_paid', payoutId: payout.id, legs: [...perEvent(payout, 'payouts_in_flight', 'mpesa_clearing'), ...chargeLegs] }]);
    },

    async payoutFailed(payout: LedgerPayout): Promise<void> {
      await repo.post([{ kind: 'payout_failed', payoutId: payout.id, legs: perEvent(payout, 'payouts_in_flight', 'organiser_payable') }]);
    },

    /** What payouts paid to organisers: the in-flight debits of `payout_paid`. */
    async payoutsPaid(): Promise<number> {
      const rows = await repo.balancesOfKinds(['payout_paid']);
      return rows.find((row) => row.account === 'payouts_in_flight')?.balance ?? 0;
    },

    /** Each account's balance (debit positive), over everything or one event's entries; every account named. */
    async balances(eventId?: string): Promise<Record<LedgerAccount, number>> {
      const rows = await repo.balances(eventId);
      return Object.fromEntries(LEDGER_ACCOUNTS.map((account) => [account, rows.find((row) => row.account === account)?.balance ?? 0])) as Record<LedgerAccount, number>;
    },

    /** Transactions that do not balance (the audit's check that nothing got past the triggers). */
    unbalanced: (limit = 100) => repo.unbalanced(limit),
  };
}

export type Ledger = ReturnType<typeof createLedger>;

export interface AdjustmentInput {
  debitAccount: LedgerAccount;
  creditAccount: LedgerAccount;
  eventId?: string | undefined;
  amount: number;
  reason: string;
}

/** What the ledger answers over HTTP: an administrator's adjustments and balances, an organiser's event statement. */
export function createLedgerService(deps: { db: Database }) {
  const { db } = deps;

  return {
    /**
     * POST /api/admin/ledger/adjustments: moves `amount` from one account to another (debit one, credit the
     * other) with the administrator's reason, for the event when one is named. Corrections are made this way,
     * never by editing entries.
     */
    async adjust(input: AdjustmentInput, admin: AuthUser) {
      if (input.debitAccount === input.creditAccount) throw AppError.badRequest('ledger_same_account', ledgerMessages.sameAccount);
      const needsEvent = input.debitAccount === 'organiser_payable' || input.creditAccount === 'organiser_payable';
      if (needsEvent && !input.eventId) throw AppError.badRequest('ledger_event_required', ledgerMessages.payableNeedsEvent);
      if (input.eventId && !(await findEvent(db, input.eventId))) throw AppError.notFound('event_not_found', ledgerMessages.eventNotFound);
      const transactionId = await db.transaction(async (tx) => {
        const [id] = await createLedgerRepository(tx).post([
          {
            kind: 'adjustment',
            memo: input.reason,
            createdBy: admin.id,
            legs: [
              { account: input.debitAccount, amount: input.amount, eventId: input.eventId },
              { account: input.creditAccount, amount: -input.amount, eventId: input.eventId },
            ],
          },
        ]);
        return id!;
      });
      return { transactionId, balances: await createLedger(db).balances(input.eventId) };
    },

    /** GET /api/admin/ledger/balances: every account's balance, or one event's entries'. */
    async balances(eventId?: string) {
      return { eventId: eventId ?? null, balances: await createLedger(db).balances(eventId) };
    },

    /**
     * GET /api/events/:id/ledger: what the event's organiser is owed, from its organiser-payable entries: gross
     * sales, minus sales M-Pesa reversed, minus refunds, plus or minus adjustments. For its organiser or an admin.
     */
    async forEvent(eventId: string, user: AuthUser) {
      const event = await findEvent(db, eventId);
      if (!event || !canSeeEvent(event, user)) throw AppError.notFound('event_not_found', ledgerMessages.eventNotFound);
      requireOwner(user, event.userId, { code: 'ledger_not_organiser', message: ledgerMessages.notOwner });
      const byKind = await createLedgerRepository(db).payableByKind(eventId);
      // Credit-normal for the organiser: a credit (negative) is money owed to them.
      const owedBy = (kind: string) => -(byKind.find((row) => row.kind === kind)?.amount ?? 0);
      const grossSales = owedBy('payment');
      const reversed = -owedBy('contradiction');
      const refunds = -owedBy('refund');
      const adjustments = owedBy('adjustment');
      const balance = -byKind.reduce((sum, row) => sum + row.amount, 0);
      return { eventId, currency: 'KES' as const, grossSales, reversed, refunds, adjustments, balance };
    },
  };
}

export type LedgerService = ReturnType<typeof createLedgerService>;
