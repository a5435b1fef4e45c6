import type { TypePlan } from './instalment-plan.js';
import { MPESA_TRANSACTION_MAX } from '@tukio/shared/limits';
import { lineFee, NO_FEE, type FeeMode, type FeeRule } from '../fees/index.js';

/**
 * What pricing an order reads (`tukio_pricing_facts`, read in one statement): the event, its ticket types in
 * their listed order, and the promo code the buyer typed (null when none was typed or no such code exists).
 */
export interface PricingFacts {
  event: { status: string; startsAt: Date; isPaid: boolean; title: string };
  /** Changes to the date, place or price wait for review (docs/decisions/events.md): no new holds meanwhile. */
  salesPaused?: boolean;
  types: Array<{ id: string; name: string; price: number; salesStart: Date | null; salesEnd: Date | null; maxPerOrder: number; dateId?: string | null; allDates?: boolean; instalments?: TypePlan | null | undefined }>;
  /** A series' active dates, earliest first (docs/decisions/event-series.md); empty or absent for an event without dates. */
  dates?: Array<{ id: string; startsAt: Date }>;
  promo: { id: string; code: string; kind: 'percent' | 'fixed'; value: number; validFrom: Date | null; validUntil: Date | null; ticketTypeIds: string[] | null } | null;
  /** The platform fee in force for the event (its override, else the platform's) and the organiser's fee mode; null before any fee was ever set. */
  fee: (FeeRule & { mode: FeeMode }) | null;
}

/** What the buyer asks for: chosen types, or (no items) `quantity` of the cheapest type on sale. */
export interface OrderRequest {
  items?: Array<{ typeId: string; quantity: number }> | undefined;
  quantity: number;
  promoCode?: string | undefined;
  /** The series date the buyer picked; only on an event with dates. */
  dateId?: string | undefined;
}

export interface PricedLine {
  typeId: string;
  quantity: number;
  unitPrice: number;
  /** Whole shillings off this line (the promo code's share). */
  discount: number;
}

export interface PricedOrder {
  lines: PricedLine[];
  quantity: number;
  subtotal: number;
  discount: number;
  /** What M-Pesa is asked for: subtotal less discount (at least Ksh 1), plus the fee when the buyer pays it on top. */
  amount: number;
  /** The platform fee inside `amount` (docs/decisions/fees.md): on top of the tickets, or out of their price. */
  fee: number;
  feeMode: FeeMode;
  promoId: string | null;
  /** The series date the order's tickets are for; null on an event without dates and for an order of all-dates passes. */
  dateId: string | null;
}

/** Why an order cannot be priced: each is said to the buyer by `orderRefusal` (order-refusal.ts). */
export type PricingRefusal =
  | { reason: 'cancelled' | 'not_open' | 'past' | 'free' | 'not_on_sale' }
  | { reason: 'type_not_found'; typeId: string }
  | { reason: 'type_not_started' | 'type_ended'; typeName: string; at: Date }
  | { reason: 'type_max'; typeName: string; max: number }
  | { reason: 'promo_unknown' | 'promo_not_valid_now' | 'promo_not_for_types'; code: string }
  | { reason: 'amount_too_large'; amount: number }
  | { reason: 'date_required' | 'date_not_found' | 'date_past' | 'date_mixed' | 'no_dates' }
  | { reason: 'type_other_date'; typeName: string };

export type PricingResult = { priced: PricedOrder; refusal?: undefined } | { priced?: undefined; refusal: PricingRefusal };

const refuse = (refusal: PricingRefusal): PricingResult => ({ refusal });

const onSale = (type: PricingFacts['types'][number], wallNow: Date) =>
  (type.salesStart === null || type.salesStart <= wallNow) && (type.salesEnd === null || type.salesEnd > wallNow);

/** A line's discount under the code: a percentage of the line, or a fixed amount off each ticket (never below zero). */
function lineDiscount(promo: NonNullable<PricingFacts['promo']>, line: PricedLine): number {
  return promo.kind === 'percent' ? Math.floor((line.unitPrice * line.quantity * promo.value) / 100) : Math.min(promo.value, line.unitPrice) * line.quantity;
}

/**
 * The price of an order, or why it cannot be bought, from the event's facts alone (no stock: seats, type
 * capacities and a code's uses are counted by the hold under the event's lock, `tukio_stock_refusal`). The quote
 * and the hold both call it, so a buyer is quoted exactly what the hold charges. `wallNow` is now on the events'
 * wall clock (lib/event-clock.ts). The order of the checks is the order a buyer can act on them.
 */
export function priceOrder(facts: PricingFacts, request: OrderRequest, wallNow: Date): PricingResult {
  const { event, promo } = facts;
  if (event.status === 'cancelled') return refuse({ reason: 'cancelled' });
  if (event.status !== 'approved') return refuse({ reason: 'not_open' });
  const dates = facts.dates ?? [];
  const series = dates.length > 0;
  // A series is on sale until its last date; each date's own start is checked below.
  if (!series && event.startsAt < wallNow) return refuse({ reason: 'past' });
  if (series && !dates.some((date) => date.startsAt >= wallNow)) return refuse({ reason: 'past' });
  if (!series && request.dateId !== undefined) return refuse({ reason: 'no_dates' });
  if (!event.isPaid) return refuse({ reason: 'free' });

  let wanted = request.items ?? [];
  if (wanted.length === 0) {
    // The default type: the cheapest on sale, first listed among equals.
    const cheapest = facts.types.filter((type) => onSale(type, wallNow)).reduce<PricingFacts['types'][number] | undefined>((best, type) => (!best || type.price < best.price ? type : best), undefined);
    if (!cheapest) return refuse({ reason: 'not_on_sale' });
    wanted = [{ typeId: cheapest.id, quantity: request.quantity }];
  }

  const lines: PricedLine[] = [];
  for (const item of wanted) {
    const type = facts.types.find((candidate) => candidate.id === item.typeId);
    if (!type) return refuse({ reason: 'type_not_found', typeId: item.typeId });
    if (type.salesStart !== null && type.salesStart > wallNow) return refuse({ reason: 'type_not_started', typeName: type.name, at: type.salesStart });
    if (type.salesEnd !== null && type.salesEnd <= wallNow) return refuse({ reason: 'type_ended', typeName: type.name, at: type.salesEnd });
    if (item.quantity > type.maxPerOrder) return refuse({ reason: 'type_max', typeName: type.name, max: type.maxPerOrder });
    lines.push({ typeId: type.id, quantity: item.quantity, unitPrice: type.price, discount: 0 });
  }
  const dated = series ? orderDate(facts, lines, request.dateId, wallNow) : { dateId: null };
  if ('reason' in dated) return refuse(dated);
  const quantity = lines.reduce((sum, line) => sum + line.quantity, 0);
  const subtotal = lines.reduce((sum, line) => sum + line.unitPrice * line.quantity, 0);
  // Nothing to pay (only free types chosen): free seats are registered, not bought.
  if (subtotal < 1) return refuse({ reason: 'free' });

  let discount = 0;
  if (request.promoCode !== undefined) {
    const code = request.promoCode.toUpperCase();
    if (!promo) return refuse({ reason: 'promo_unknown', code });
    if ((promo.validFrom !== null && promo.validFrom > wallNow) || (promo.validUntil !== null && promo.validUntil <= wallNow)) return refuse({ reason: 'promo_not_valid_now', code });
    const eligible = lines.filter((line) => promo.ticketTypeIds === null || promo.ticketTypeIds.includes(line.typeId));
    if (eligible.length === 0) return refuse({ reason: 'promo_not_for_types', code });
    for (const line of eligible) {
      // The order still costs at least Ksh 1: M-Pesa takes no zero.
      line.discount = Math.max(Math.min(lineDiscount(promo, line), subtotal - 1 - discount), 0);
      discount += line.discount;
    }
  }
  const tickets = subtotal - discount;
  const { fee, feeMode } = orderFee(facts.fee, lines, tickets);
  const amount = feeMode === 'on_top' ? tickets + fee : tickets;
  if (amount > MPESA_TRANSACTION_MAX) return refuse({ reason: 'amount_too_large', amount });
  return { priced: { lines, quantity, subtotal, discount, amount, fee, feeMode, promoId: request.promoCode !== undefined ? (promo?.id ?? null) : null, dateId: dated.dateId } };
}

/**
 * The date a series order is for (docs/decisions/event-series.md): the one the buyer picked, or the date its types
 * are tied to; null for all-dates passes. Passes are bought on their own (a pass is for every date, a day ticket for
 * one), and a type tied to one date is not sold for another.
 */
type DateRefusal = { reason: 'date_required' | 'date_not_found' | 'date_past' | 'date_mixed' } | { reason: 'type_other_date'; typeName: string };

function orderDate(facts: PricingFacts, lines: PricedLine[], picked: string | undefined, wallNow: Date): { dateId: string | null } | DateRefusal {
  const types = lines.map((line) => facts.types.find((type) => type.id === line.typeId)!);
  const passes = types.filter((type) => type.allDates).length;
  if (passes > 0 && passes < types.length) return { reason: 'date_mixed' };
  if (passes > 0) return { dateId: null };
  const tied = types.find((type) => type.dateId);
  const dateId = picked ?? tied?.dateId ?? undefined;
  if (dateId === undefined) return { reason: 'date_required' };
  const date = (facts.dates ?? []).find((candidate) => candidate.id === dateId);
  if (!date) return { reason: 'date_not_found' };
  if (date.startsAt < wallNow) return { reason: 'date_past' };
  const other = types.find((type) => type.dateId && type.dateId !== dateId);
  if (other) return { reason: 'type_other_date', typeName: other.name };
  return { dateId };
}

/**
 * The order's platform fee: each line's (`lineFee`: free lines pay none) summed. Absorbed, it comes out of what the
 * tickets cost, so it never takes more than that (the organiser's share is never negative).
 */
function orderFee(fee: PricingFacts['fee'], lines: PricedLine[], tickets: number): { fee: number; feeMode: FeeMode } {
  const rule = fee ?? NO_FEE;
  const feeMode = fee?.mode ?? 'absorbed';
  const total = lines.reduce((sum, line) => sum + lineFee(rule, line.unitPrice * line.quantity - line.discount, line.unitPrice > 0 ? line.quantity : 0), 0);
  return { fee: feeMode === 'absorbed' ? Math.min(total, tickets) : total, feeMode };
}
