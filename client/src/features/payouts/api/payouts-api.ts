/*
 * PAYOUTS API (server/src/modules/payouts, docs/decisions/payouts.md): the signed-in organiser's balances
 * (GET /api/payouts), an organiser's read by a finance member for all their events (GET /api/payouts/organisers/:id),
 * and one event's statement (GET /api/payouts/events/:id/statement, JSON or CSV).
 * Amounts are whole shillings.
 */
import { api } from '../../../lib/api-client';

/** Why no payout is made now; null when one is due. */
export type PayoutWaitingFor = 'nothing_payable' | 'below_minimum' | 'no_destination' | 'destination_held' | 'payout_open' | 'payout_failed';

export type EventPayoutStatus = 'available' | 'early' | 'pending' | 'on_hold' | 'awaiting_refunds' | 'negative' | 'settled';

export interface EventPayoutRow {
  eventId: string;
  title: string;
  startsAt: string;
  status: EventPayoutStatus;
  owed: number;
  available: number;
  pending: number;
  onHold: number;
  negative: number;
  paidOut: number;
  payableFrom: string;
}

export interface PayoutSummary {
  currency: 'KES';
  pending: number;
  available: number;
  onHold: number;
  inFlight: number;
  paid: number;
  negativeBalance: number;
  nextPayout: { amount: number } | null;
  waitingFor: PayoutWaitingFor | null;
  events: EventPayoutRow[];
}

export type PayoutStatus = 'sending' | 'retrying' | 'paid' | 'failed';

export interface EventStatement {
  eventId: string;
  title: string;
  currency: 'KES';
  grossSales: number;
  fees: number;
  mpesaCharges: number;
  refunds: number;
  adjustments: number;
  net: number;
  paidOut: number;
  balance: number;
  payouts: Array<{ payoutId: string; forEvent: number; amount: number; status: PayoutStatus; receipt: string | null; createdAt: string; paidAt: string | null }>;
}

export const payoutSummaryKey = ['payouts', 'summary'] as const;
export const organiserSummaryKey = (organiserId: string) => ['payouts', 'summary', organiserId] as const;
export const statementKey = (eventId: string) => ['payouts', 'statement', eventId] as const;

const statementPath = (eventId: string) => `/payouts/events/${encodeURIComponent(eventId)}/statement`;

export async function getPayoutSummary(signal?: AbortSignal): Promise<PayoutSummary> {
  return (await api.get<PayoutSummary>('/payouts', { signal })).data;
}

export async function getOrganiserPayoutSummary(organiserId: string, signal?: AbortSignal): Promise<PayoutSummary> {
  return (await api.get<PayoutSummary>(`/payouts/organisers/${encodeURIComponent(organiserId)}`, { signal })).data;
}

export async function getEventStatement(eventId: string, signal?: AbortSignal): Promise<EventStatement> {
  return (await api.get<EventStatement>(statementPath(eventId), { signal })).data;
}

/** The statement as CSV (the token goes in the header, so a fetched file rather than a plain link). */
export async function getEventStatementCsv(eventId: string): Promise<Blob> {
  return (await api.get<Blob>(statementPath(eventId), { params: { format: 'csv' }, responseType: 'blob' })).data;
}
