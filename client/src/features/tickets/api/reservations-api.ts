/* Reservations: orders paid in instalments (docs/decisions/instalments.md), on the API server. */
import { api } from '../../../lib/api-client';

export interface Reservation {
  orderId: string;
  eventId: string;
  eventTitle: string;
  eventStartsAt: string;
  ticketTypeName: string | null;
  quantity: number;
  status: 'reserved' | 'paid' | 'lapsed' | string;
  amount: number;
  paid: number;
  balance: number;
  deposit: number;
  /** A real instant. */
  dueAt: string | null;
  cancellationFee: number;
  refundIfLapsed: number;
  keptIfLapsed: number;
  orderCode: string | null;
  paybill: string | null;
  phone: string | null;
}

export const reservationsQueryKey = (userId: string) => ['reservations', userId] as const;

/** GET /api/reservations: open ones by due date, then those paid or lapsed lately. */
export async function getReservations(signal?: AbortSignal): Promise<Reservation[]> {
  const { data } = await api.get<Reservation[]>('/reservations', { signal });
  return data;
}

export interface PayTowardsAnswer {
  CheckoutRequestID: string;
  amount: number;
  balance: number;
  simulatorPromptPath?: string;
}

/** POST /api/reservations/:orderId/pay {amount?, phone?}: an M-Pesa prompt for part or all of the balance. */
export async function payTowardsReservation(orderId: string, input: { amount?: number; phone?: string }): Promise<PayTowardsAnswer> {
  const { data } = await api.post<PayTowardsAnswer>(`/reservations/${encodeURIComponent(orderId)}/pay`, input);
  return data;
}
