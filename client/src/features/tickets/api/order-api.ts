/*
 * Ticket types and promo codes on the API server (server/src/modules/ticket-types): what an order would
 * cost, and the organiser's promo codes. The server prices everything; the browser only shows its figures.
 */
import { api } from '../../../lib/api-client';
import type { FeeMode } from '../../../types/api';

const seg = (value: string) => encodeURIComponent(value);

/** Seats of one ticket type in an order. */
export interface OrderItem {
  typeId: string;
  quantity: number;
}

export interface OrderQuote {
  quantity: number;
  /** Before the promo code. */
  subtotal: number;
  discount: number;
  /** What the M-Pesa prompt will ask for. */
  amount: number;
  /** The code as the server applied it (upper-case), or null. */
  promoCode: string | null;
  /** The platform fee inside `amount` (absent on old servers), and whether the buyer pays it on top. */
  fee?: number;
  feeMode?: FeeMode;
}

/**
 * POST /api/events/:id/quote {items?, quantity?, promoCode?} -> the price the purchase would get, or the
 * refusal it would get (a 4xx naming its field, e.g. `promoCode`).
 */
export async function quoteOrder(eventId: string, order: { items?: OrderItem[]; quantity: number; promoCode?: string | null; dateId?: string | undefined }, signal?: AbortSignal): Promise<OrderQuote> {
  const { data } = await api.post<OrderQuote>(
    `/events/${seg(eventId)}/quote`,
    { ...(order.items ? { items: order.items } : { quantity: order.quantity }), ...(order.promoCode ? { promoCode: order.promoCode } : {}), ...(order.dateId ? { dateId: order.dateId } : {}) },
    { signal },
  );
  return data;
}

export type PromoCodeKind = 'percent' | 'fixed';

export interface PromoCode {
  _id: string;
  code: string;
  kind: PromoCodeKind;
  /** Percent off, or shillings off each ticket it applies to. */
  value: number;
  maxUses: number | null;
  /** Orders paid with it, plus live holds. */
  uses: number;
  validFrom: string | null;
  validUntil: string | null;
  /** The types it is limited to; null for all. */
  ticketTypeIds: string[] | null;
  createdAt: string;
}

export interface NewPromoCode {
  code: string;
  kind: PromoCodeKind;
  value: number;
  maxUses: number | null;
  /** Wall-clock `YYYY-MM-DDTHH:mm`, or null. */
  validFrom: string | null;
  validUntil: string | null;
  ticketTypeIds: string[] | null;
}

/** GET /api/events/:id/promo-codes (organiser or admin) -> the codes with their uses. */
export async function listPromoCodes(eventId: string, signal?: AbortSignal): Promise<PromoCode[]> {
  const { data } = await api.get<PromoCode[]>(`/events/${seg(eventId)}/promo-codes`, { signal });
  return Array.isArray(data) ? data : [];
}

/** POST /api/events/:id/promo-codes -> 201 the new code (400/409 name the field). */
export async function createPromoCode(eventId: string, input: NewPromoCode): Promise<PromoCode> {
  const { data } = await api.post<PromoCode>(`/events/${seg(eventId)}/promo-codes`, input);
  return data;
}

/** DELETE /api/events/:id/promo-codes/:codeId -> {deleted, ended, msg}: a used code is ended instead. */
export async function removePromoCode(eventId: string, codeId: string): Promise<{ deleted: boolean; ended: boolean; msg: string }> {
  const { data } = await api.delete<{ deleted: boolean; ended: boolean; msg: string }>(`/events/${seg(eventId)}/promo-codes/${seg(codeId)}`);
  return data;
}
