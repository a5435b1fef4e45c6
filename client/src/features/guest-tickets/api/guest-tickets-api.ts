/* A guest order's tickets (GET /api/guest-tickets/:token): the page the guest's SMS links to. */
import { api } from '../../../lib/api-client';

export type GuestVoidReason = 'event_cancelled' | 'self_cancel' | 'transferred';

export interface GuestRefund {
  amount: number;
  reason: 'sold_out' | 'event_cancelled' | 'late_payment' | 'self_cancel' | 'admin';
  status: 'due' | 'sent' | 'succeeded' | 'failed';
  /** The M-Pesa TransactionID once the refund is paid. */
  receipt: string | null;
  createdAt: string;
}

export interface GuestTicketsView {
  orderStatus: 'pending' | 'paid' | 'failed' | 'cancelled' | 'expired' | 'refund_due';
  /** `cancelReason`/`cancelledAt` are set once the event is cancelled (older servers leave them out). */
  event: { _id: string; title: string; date: string; location: string; status: string; cancelReason?: string | null; cancelledAt?: string | null };
  tickets: Array<{ _id: string; code: string; holder: string; checkedInAt: string | null; voidedAt: string | null; voidReason?: GuestVoidReason | null }>;
  /** The order's refunds, oldest first. */
  refunds?: GuestRefund[];
}

export async function getGuestTickets(token: string, signal?: AbortSignal): Promise<GuestTicketsView> {
  const { data } = await api.get<GuestTicketsView>(`/guest-tickets/${encodeURIComponent(token)}`, { signal });
  return data;
}
