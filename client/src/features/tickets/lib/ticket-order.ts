/*
 * What a buyer is about to pay for: the seats of each ticket type (or just a number of tickets on an event
 * with one type), an optional promo code, and the figures shown before the server prices it.
 */
import { MAX_TICKETS_PER_ORDER } from '@tukio/shared/limits';
import { formatEventDate, formatEventTime } from '../../../lib/format';
import type { InstalmentPlanView, TicketTypeView } from '../../../types/api';
import type { OrderItem, OrderQuote } from '../api/order-api';
import { t } from '../../../lib/i18n';

export interface TicketOrder {
  /** Tickets in all. */
  quantity: number;
  /** Seats per type; absent on an event with one type (the server sells its cheapest type on sale). */
  items?: OrderItem[];
  promoCode?: string;
  /** The order's lines as the buyer chose them (name null on a one-type event). */
  lines: Array<{ name: string | null; quantity: number; price: number }>;
  /** The promo code's discount, as the server quoted it (0 without one). */
  discount: number;
  /** The platform fee the buyer pays on top of the tickets, as the server quoted it (0 when none or absorbed). */
  feeOnTop?: number;
  /** The plan of the one ticket type chosen, when its organiser allows paying in parts (docs/decisions/instalments.md). */
  plan?: InstalmentPlanView | null;
  /** The buyer chose to pay the deposit now and the rest later. */
  instalments?: boolean;
  /** On an event series: the date picked (docs/decisions/event-series.md). */
  date?: { _id: string; startsAt: string };
}

/** What the quote adds on top of the tickets' price: its fee when the buyer pays it (docs/decisions/fees.md). */
const feeOnTopOf = (quote?: OrderQuote | null) => (quote?.feeMode === 'on_top' ? (quote.fee ?? 0) : 0);

/** Seats chosen per type id. */
export type TypeSelection = Record<string, number>;

/** The order for `quantity` tickets of a one-type event at `price`. */
export function singleTypeOrder(quantity: number, price: number, quote?: OrderQuote | null, plan?: InstalmentPlanView | null): TicketOrder {
  return { quantity, lines: [{ name: null, quantity, price }], discount: quote?.discount ?? 0, feeOnTop: feeOnTopOf(quote), plan: plan ?? null, ...(quote?.promoCode ? { promoCode: quote.promoCode } : {}) };
}

/** The order for the seats chosen of each type (types with none left out). */
export function multiTypeOrder(types: TicketTypeView[], selection: TypeSelection, quote?: OrderQuote | null): TicketOrder {
  const chosen = types.filter((type) => (selection[type._id] ?? 0) > 0);
  const lines = chosen.map((type) => ({ name: type.name, quantity: selection[type._id]!, price: type.price }));
  return {
    quantity: lines.reduce((sum, line) => sum + line.quantity, 0),
    items: chosen.map((type) => ({ typeId: type._id, quantity: selection[type._id]! })),
    lines,
    discount: quote?.discount ?? 0,
    feeOnTop: feeOnTopOf(quote),
    // Instalments are for one type per order (docs/decisions/instalments.md).
    plan: chosen.length === 1 ? (chosen[0]!.instalments ?? null) : null,
    ...(quote?.promoCode ? { promoCode: quote.promoCode } : {}),
  };
}

export const orderSubtotal = (order: Pick<TicketOrder, 'lines'>) => order.lines.reduce((sum, line) => sum + line.price * line.quantity, 0);

/** What the order should cost (the server's own figure, once it answers, is what is shown and charged). */
export const orderAmount = (order: Pick<TicketOrder, 'lines' | 'discount' | 'feeOnTop'>) => Math.max(0, orderSubtotal(order) - order.discount) + (order.feeOnTop ?? 0);

/** The most of `type` that can be added to an order already holding `others` tickets of other types. */
export function typeMaximum(type: TicketTypeView, others: number): number {
  if (type.state !== 'on_sale') return 0;
  return Math.max(0, Math.min(type.maxPerOrder, type.seatsLeft ?? MAX_TICKETS_PER_ORDER, MAX_TICKETS_PER_ORDER - others));
}

/**
 * What an event with several types offers before the buyer touches anything: one ticket of the first type on
 * sale, so the buy button works at once (a buyer changes it, or picks another type, in the list).
 */
export function defaultSelection(types: TicketTypeView[]): TypeSelection {
  const first = types.find((type) => typeMaximum(type, 0) >= 1);
  return first ? { [first._id]: 1 } : {};
}

/** A wall-clock time as the event page writes it: 'Dec 1, 2026, 9:00 AM'. */
const wallClock = (value: string) => `${formatEventDate(value)}, ${formatEventTime(value)}`;

/** Why a type cannot be bought now, in the buyer's words; null while it is on sale. */
export function typeStateLabel(type: TicketTypeView): string | null {
  if (type.state === 'sold_out') return t('tickets.soldOut');
  if (type.state === 'not_started') return type.salesStart ? t('tickets.onSaleFrom', { when: wallClock(type.salesStart) }) : t('tickets.notOnSaleYet');
  if (type.state === 'ended') return t('tickets.salesEnded');
  return null;
}

/** "3 left" under a type with a limit; null when unlimited or not on sale. */
export function typeSeatsLabel(type: TicketTypeView): string | null {
  if (type.state !== 'on_sale' || type.seatsLeft === null) return null;
  return t('tickets.left', { count: type.seatsLeft });
}
