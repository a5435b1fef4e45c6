import { pullTransactionsResponse, paybillCheckoutId, type PulledTransaction, type PullTransactionsResponse } from '@tukio/shared/internal-c2b';
import { and, desc, eq, gte, inArray, isNull, like, lte, or } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { users, type AuthUser } from '../auth/index.js';
import { newId } from '../../db/ids.js';
import type { JobQueue } from '../../lib/job-queue.js';
import type { Logger } from '../../lib/logger.js';
import { escapeHtml } from '../../lib/html.js';
import type { Mail } from '../../lib/mailer.js';
import { translator } from '../../lib/i18n.js';
import { createRepeatingTask } from '../../lib/repeating-task.js';
import { createInternalCaller, parsedBody } from './payment-gateway.js';
import type { PaybillHandler } from './paybill.handler.js';
import { createPaymentsRepository } from './payments.repository.js';
import { payments, unmatchedPayments } from './payments.schema.js';
import { reconciliationFindings, reconciliationRuns, type ReconciliationFindingKind } from './reconciliation.schema.js';

/** What reconciliation asks of M-Pesa through the payment service: its list of a window's Paybill payments. */
export interface PullGateway {
  pullTransactions(window: { from: Date; to: Date }): Promise<PullTransactionsResponse>;
}

/** POST /internal/pull-transactions on the payment service (X-Internal-Key). */
export function createPullGateway(options: { paymentUrl: string; internalApiKey: string; timeoutMs: number }): PullGateway {
  const call = createInternalCaller(options);
  return {
    async pullTransactions(window) {
      const answer = await call('/internal/pull-transactions', { from: window.from.toISOString(), to: window.to.toISOString() });
      const body = parsedBody(answer.text);
      if (answer.status !== 200) throw new Error(typeof body.message === 'string' ? body.message : `the payment service answered ${answer.status}`);
      return pullTransactionsResponse.parse(body);
    },
  };
}

interface Finding {
  kind: ReconciliationFindingKind;
  transId: string;
  mpesaAmount: number | null;
  tukioAmount: number | null;
}

const HOUR_MS = 3600_000;

/** The findings an administrator must look into: the others were settled (recovered) or wait in the unmatched queue. */
export const REVIEWABLE_FINDINGS: readonly ReconciliationFindingKind[] = ['amount_differs', 'missing_at_mpesa'];

/**
 * Daily reconciliation (docs/decisions/reconciliation.md): M-Pesa's list of the paybill shortcode's payments in the
 * last RECONCILE_WINDOW_HOURS (Pull Transactions) against Tukio's. A payment Tukio never heard of goes through the
 * Paybill confirmation path (the one settle path, or unmatched_payments): never a second way to settle. Amounts that
 * differ, and Paybill receipts M-Pesa does not list, are findings for the admins, who are mailed when there are any.
 */
export function createReconciliation(deps: {
  db: Database;
  gateway: PullGateway;
  paybill: PaybillHandler;
  queueMail: (what: string, build: () => Promise<Mail | undefined>) => void;
  logger: Logger;
  windowHours: number;
  everyMs: number;
  jobs?: JobQueue | undefined;
  now?: () => Date;
}) {
  const { db, logger } = deps;
  const now = deps.now ?? (() => new Date());

  /** What Tukio knows of these receipts: its payments (prompt or Paybill) and its unmatched Paybill payments. */
  async function known(transIds: string[]) {
    const amounts = new Map<string, number>();
    if (transIds.length === 0) return amounts;
    const paid = await db
      .select({ receipt: payments.mpesaReceiptNumber, checkoutRequestId: payments.checkoutRequestId, amount: payments.amount })
      .from(payments)
      .where(or(inArray(payments.mpesaReceiptNumber, transIds), inArray(payments.checkoutRequestId, transIds.map(paybillCheckoutId))));
    for (const row of paid) amounts.set(row.receipt ?? row.checkoutRequestId.replace(/^c2b_/, ''), row.amount);
    const kept = await db.select({ transId: unmatchedPayments.transId, amount: unmatchedPayments.amount }).from(unmatchedPayments).where(inArray(unmatchedPayments.transId, transIds));
    for (const row of kept) amounts.set(row.transId, row.amount);
    return amounts;
  }

  /** A payment M-Pesa completed and Tukio never heard of, delivered as its confirmation would have been. */
  async function recover(row: PulledTransaction, shortCode: string): Promise<Finding | undefined> {
    const amount = Math.round(row.amount);
    const answer = await deps.paybill.confirm({ transId: row.transId, billRefNumber: row.billRefNumber, amount, msisdn: row.msisdn, shortCode });
    // duplicate: its confirmation (or another run) got there first, nothing was missing after all.
    if (answer.outcome === 'duplicate') return undefined;
    return { kind: answer.outcome === 'unmatched' ? 'unmatched' : 'recovered', transId: row.transId, mpesaAmount: amount, tukioAmount: null };
  }

  async function compare(window: { from: Date; to: Date }, pulled: PullTransactionsResponse): Promise<Finding[]> {
    const findings: Finding[] = [];
    const ours = await known(pulled.transactions.map((row) => row.transId));
    for (const row of pulled.transactions) {
      const amount = Math.round(row.amount);
      const tukio = ours.get(row.transId);
      if (tukio === undefined) {
        const recovered = await recover(row, pulled.shortCode);
        if (recovered) findings.push(recovered);
      } else if (tukio !== amount) findings.push({ kind: 'amount_differs', transId: row.transId, mpesaAmount: amount, tukioAmount: tukio });
    }
    // Paybill receipts Tukio settled in the window that M-Pesa does not list (prompt payments are not in Pull: C2B only).
    const listed = new Set(pulled.transactions.map((row) => row.transId));
    const paybill = await db
      .select({ receipt: payments.mpesaReceiptNumber, amount: payments.amount })
      .from(payments)
      .where(and(like(payments.checkoutRequestId, 'c2b\\_%'), eq(payments.status, 'success'), gte(payments.createdAt, window.from), lte(payments.createdAt, window.to)));
    for (const row of paybill) if (row.receipt && !listed.has(row.receipt)) findings.push({ kind: 'missing_at_mpesa', transId: row.receipt, mpesaAmount: null, tukioAmount: row.amount });
    return findings;
  }

  function mailAdmins(window: { from: Date; to: Date }, pulled: number, findings: Finding[]) {
    const count = (kind: ReconciliationFindingKind) => findings.filter((finding) => finding.kind === kind).length;
    const build = (admin: { email: string; username: string; language: 'en' | 'sw' }): Mail => {
      const t = translator(admin.language);
      const text = t('reconciliation.adminText', {
        from: window.from.toISOString(),
        to: window.to.toISOString(),
        pulled,
        recovered: count('recovered'),
        unmatched: count('unmatched'),
        differs: count('amount_differs'),
        missing: count('missing_at_mpesa'),
      });
      const hello = t('mail.hello', { username: admin.username });
      return { to: admin.email, subject: t('reconciliation.adminSubject', { count: findings.length }), text: `${hello}\n\n${text}\n`, html: `<p>${escapeHtml(hello)}</p><p>${escapeHtml(text)}</p>` };
    };
    deps.queueMail('reconciliation findings to admins', async () => {
      const admins = await createPaymentsRepository(db).adminContacts();
      // queueMail sends one mail per call: the admins after the first get theirs queued from here.
      for (const admin of admins.slice(1)) deps.queueMail(`reconciliation findings to ${admin.email}`, async () => build(admin));
      return admins[0] && build(admins[0]);
    });
  }

  /** One reconciliation of the window ending now; `requestedBy` is the admin who asked (none for the daily job). */
  async function run(requestedBy?: string) {
    const to = now();
    const window = { from: new Date(to.getTime() - deps.windowHours * HOUR_MS), to };
    const [started] = await db.insert(reconciliationRuns).values({ id: newId(), windowFrom: window.from, windowTo: window.to, requestedBy: requestedBy ?? null }).returning();
    const runId = started!.id;
    try {
      const pulled = await deps.gateway.pullTransactions(window);
      const findings = await compare(window, pulled);
      if (findings.length) await db.insert(reconciliationFindings).values(findings.map((finding) => ({ id: newId(), ...finding, runId })));
      await db.update(reconciliationRuns).set({ status: 'done', pulled: pulled.transactions.length, finishedAt: now() }).where(eq(reconciliationRuns.id, runId));
      if (findings.length) {
        logger.error(`reconciliation ${runId}: ${findings.length} finding(s) among ${pulled.transactions.length} M-Pesa payments`);
        mailAdmins(window, pulled.transactions.length, findings);
      } else logger.info(`reconciliation ${runId}: M-Pesa's ${pulled.transactions.length} payments all match`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await db.update(reconciliationRuns).set({ status: 'failed', error: message.slice(0, 500), finishedAt: now() }).where(eq(reconciliationRuns.id, runId));
      // The administrator who asked is answered with the failure (and the report keeps it), so it is only noted;
      // the unattended daily run has nobody to tell, so its failure is an error. (Test servers start no payment
      // service and reconcile only when a test asks.)
      if (requestedBy) logger.info(`reconciliation ${runId} failed: ${message}`);
      else logger.error(`reconciliation ${runId} failed: ${message}`);
    }
    return report(runId);
  }

  async function report(runId: string) {
    const [row] = await db.select().from(reconciliationRuns).where(eq(reconciliationRuns.id, runId));
    const findings = await db
      .select({ finding: reconciliationFindings, reviewer: users.username })
      .from(reconciliationFindings)
      .leftJoin(users, eq(users.id, reconciliationFindings.reviewedBy))
      .where(eq(reconciliationFindings.runId, runId))
      .orderBy(reconciliationFindings.createdAt, reconciliationFindings.transId);
    return {
      _id: row!.id,
      windowFrom: row!.windowFrom.toISOString(),
      windowTo: row!.windowTo.toISOString(),
      status: row!.status,
      pulled: row!.pulled,
      error: row!.error,
      createdAt: row!.createdAt.toISOString(),
      finishedAt: row!.finishedAt?.toISOString() ?? null,
      findings: findings.map(({ finding, reviewer }) => ({
        _id: finding.id,
        kind: finding.kind,
        transId: finding.transId,
        mpesaAmount: finding.mpesaAmount,
        tukioAmount: finding.tukioAmount,
        review: finding.reviewedAt ? { at: finding.reviewedAt.toISOString(), by: reviewer, note: finding.reviewNote ?? '' } : null,
      })),
    };
  }

  /**
   * "Mark reviewed": an administrator looked into an amount that differs or a receipt M-Pesa does not list, and says
   * what they found. Set once (a second review is refused) and kept with the finding; nothing else changes, since the
   * money is put right, if at all, by the existing refund and unmatched-payment actions.
   */
  async function review(findingId: string, note: string, admin: AuthUser) {
    const [finding] = await db.select().from(reconciliationFindings).where(eq(reconciliationFindings.id, findingId));
    if (!finding) throw AppError.notFound('reconciliation_finding_not_found', 'Reconciliation finding not found.');
    if (!REVIEWABLE_FINDINGS.includes(finding.kind)) throw AppError.conflict('reconciliation_finding_not_reviewable', 'Only amounts that differ and receipts M-Pesa does not list are reviewed.');
    const [marked] = await db
      .update(reconciliationFindings)
      .set({ reviewedAt: now(), reviewedBy: admin.id, reviewNote: note })
      .where(and(eq(reconciliationFindings.id, findingId), isNull(reconciliationFindings.reviewedAt)))
      .returning();
    if (!marked) throw AppError.conflict('reconciliation_finding_reviewed', 'This finding was already reviewed.');
    logger.info(`reconciliation finding ${finding.id} (${finding.kind} ${finding.transId}) reviewed by ${admin.username} (${admin.id}): ${note}`);
    const runs = await report(finding.runId);
    return runs.findings.find((item) => item._id === findingId)!;
  }

  /** The latest runs with their findings, newest first. */
  async function list(limit = 20) {
    const rows = await db.select({ id: reconciliationRuns.id }).from(reconciliationRuns).orderBy(desc(reconciliationRuns.createdAt)).limit(limit);
    return Promise.all(rows.map((row) => report(row.id)));
  }

  const task = createRepeatingTask('reconciliation', () => run(), { everyMs: deps.everyMs, logger, jobs: deps.jobs });

  return {
    run,
    list,
    review,
    start: () => task.start(),
    stop: () => task.stop(),
    /** The daily job's run, now (tests). */
    runOnce: () => task.runOnce(),
  };
}

export type Reconciliation = ReturnType<typeof createReconciliation>;
