/*
 * The administrators' money view (server modules ledger and payouts, docs/decisions/payouts.md): every ledger
 * account's balance, the payouts list with its retry, an event's payout hold, an organiser's early-payout trust.
 */
import { api } from '../../../lib/api-client';

export const LEDGER_ACCOUNTS = ['mpesa_clearing', 'organiser_payable', 'platform_fees', 'mpesa_charges', 'refunds_payable', 'payouts_in_flight'] as const;
export type LedgerAccount = (typeof LEDGER_ACCOUNTS)[number];
/** Whole shillings, debit positive and credit negative (what Tukio owes is negative). */
export type LedgerBalances = Record<LedgerAccount, number>;

export type AdminPayoutStatus = 'sending' | 'retrying' | 'paid' | 'failed';

export interface AdminPayoutRow {
  payoutId: string;
  organiserId: string;
  username: string;
  /** Whether the organiser is trusted with early payouts. */
  earlyPayouts: boolean;
  amount: number;
  method: string;
  status: AdminPayoutStatus;
  attempts: number;
  nextAttemptAt: string | null;
  receipt: string | null;
  failure: string | null;
  lastResultCode: string | null;
  retriedAt: string | null;
  createdAt: string;
  paidAt: string | null;
}

export interface PayoutRetried {
  payoutId: string;
  retriedAt: string;
  newPayoutId: string | null;
  waitingFor: string | null;
}

/** GET /api/admin/ledger/balances (admin). */
export async function getLedgerBalances(signal?: AbortSignal): Promise<LedgerBalances> {
  return (await api.get<{ eventId: string | null; balances: LedgerBalances }>('/admin/ledger/balances', { signal })).data.balances;
}

/** GET /api/admin/payouts?status= (admin): newest first. */
export async function getAdminPayouts(status: AdminPayoutStatus | '', signal?: AbortSignal): Promise<AdminPayoutRow[]> {
  return (await api.get<AdminPayoutRow[]>('/admin/payouts', { params: { status: status || undefined }, signal })).data;
}

/** An event whose payouts an administrator holds now. */
export interface PayoutHold {
  eventId: string;
  title: string;
  organiser: string;
  reason: string;
  heldAt: string;
}

/** GET /api/admin/payout-holds (admin): newest first. */
export async function getPayoutHolds(signal?: AbortSignal): Promise<PayoutHold[]> {
  return (await api.get<PayoutHold[]>('/admin/payout-holds', { signal })).data;
}

/** POST /api/admin/payouts/:id/retry (admin): 409 when it is no longer failed or was retried already. */
export async function retryPayout(payoutId: string): Promise<PayoutRetried> {
  return (await api.post<PayoutRetried>(`/admin/payouts/${encodeURIComponent(payoutId)}/retry`)).data;
}

/** POST /api/admin/events/:id/payout-hold (admin): 404 unknown event, 409 already held. */
export async function holdEventPayouts(eventId: string, reason: string): Promise<void> {
  await api.post(`/admin/events/${encodeURIComponent(eventId)}/payout-hold`, { reason });
}

/** DELETE /api/admin/events/:id/payout-hold (admin): 409 when not held. */
export async function releaseEventPayouts(eventId: string): Promise<void> {
  await api.delete(`/admin/events/${encodeURIComponent(eventId)}/payout-hold`);
}

/** PUT /api/admin/users/:id/early-payouts (admin). */
export async function setEarlyPayouts(userId: string, allowed: boolean): Promise<{ userId: string; earlyPayouts: boolean }> {
  return (await api.put<{ userId: string; earlyPayouts: boolean }>(`/admin/users/${encodeURIComponent(userId)}/early-payouts`, { allowed })).data;
}

/** A difference a reconciliation with M-Pesa found (docs/decisions/reconciliation.md). */
export interface ReconciliationFinding {
  _id: string;
  kind: 'recovered' | 'unmatched' | 'amount_differs' | 'missing_at_mpesa';
  transId: string;
  mpesaAmount: number | null;
  tukioAmount: number | null;
  /** An administrator's "Mark reviewed" (who is null once their account is gone). */
  review: { at: string; by: string | null; note: string } | null;
}

export interface ReconciliationRun {
  _id: string;
  windowFrom: string;
  windowTo: string;
  status: 'running' | 'done' | 'failed';
  pulled: number;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  findings: ReconciliationFinding[];
}

/** GET /api/admin/reconciliation (admin): the latest runs, newest first. */
export async function getReconciliations(signal?: AbortSignal): Promise<ReconciliationRun[]> {
  return (await api.get<ReconciliationRun[]>('/admin/reconciliation', { signal })).data;
}

/** POST /api/admin/reconciliation/run (admin): reconcile now; the run, failed when M-Pesa could not be asked. */
export async function reconcileNow(): Promise<ReconciliationRun> {
  return (await api.post<ReconciliationRun>('/admin/reconciliation/run')).data;
}

/** POST /api/admin/reconciliation/findings/:id/review (admin): an amount that differs or a receipt M-Pesa does not list, looked into. */
export async function reviewFinding(findingId: string, note: string): Promise<ReconciliationFinding> {
  return (await api.post<ReconciliationFinding>(`/admin/reconciliation/findings/${encodeURIComponent(findingId)}/review`, { note })).data;
}

/** A Paybill payment whose account number matched no order (docs/decisions/paybill.md). */
export type UnmatchedPaymentStatus = 'waiting' | 'attached' | 'refunding' | 'refunded';
export interface UnmatchedPaymentRow {
  _id: string;
  transId: string;
  billRefNumber: string;
  amount: number;
  /** As M-Pesa names the payer: masked on Daraja v2. */
  msisdn: string;
  status: UnmatchedPaymentStatus;
  createdAt: string;
  resolvedAt: string | null;
}

/** GET /api/admin/unmatched-payments (admin): newest first. */
export async function getUnmatchedPayments(signal?: AbortSignal): Promise<UnmatchedPaymentRow[]> {
  return (await api.get<UnmatchedPaymentRow[]>('/admin/unmatched-payments', { signal })).data;
}

/** POST /api/admin/unmatched-payments/:id/refund (admin): reversed by its TransID; 409 once placed or refunded. */
export async function refundUnmatchedPayment(id: string, reason: string): Promise<{ status: 'refunding'; refundId: string }> {
  return (await api.post<{ status: 'refunding'; refundId: string }>(`/admin/unmatched-payments/${encodeURIComponent(id)}/refund`, { reason })).data;
}
