/* A guest order's tickets (GET /api/guest-tickets/:token): the page the guest's SMS links to. */
import { api } from '../../../lib/api-client';

export interface GuestTicketsView {
  orderStatus: 'pending' | 'paid' | 'failed' | 'cancelled' | 'expired' | 'refund_due';
  event: { _id: string; title: string; date: string; location: string; status: string };
  tickets: Array<{ _id: string; code: string; holder: string; checkedInAt: string | null; voidedAt: string | null }>;
}

export async function getGuestTickets(token: string, signal?: AbortSignal): Promise<GuestTicketsView> {
  const { data } = await api.get<GuestTicketsView>(`/guest-tickets/${encodeURIComponent(token)}`, { signal });
  return data;
}
