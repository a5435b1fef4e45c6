/*
 * The order being put together in the ticket box: the event's ticket types (read once for a paid event),
 * the seats chosen (a number of tickets on a one-type event, seats per type otherwise) and a promo code.
 * An applied code is priced by the server (POST /quote, the purchase's own rules); when the seats change
 * the quote is asked again, so the total shown is always the server's. A refused code is said at the field
 * and nothing chosen or typed is lost.
 */
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { getErrorMessage, getServerFieldError } from '../../../lib/errors';
import { getTicketTypes } from '../../../lib/ticket-types-api';
import type { EventItem, TicketTypeView } from '../../../types/api';
import { quoteOrder, type OrderQuote } from '../api/order-api';
import { defaultSelection, multiTypeOrder, singleTypeOrder, type TicketOrder, type TypeSelection } from '../lib/ticket-order';
import { t } from '../../../lib/i18n';

/** Catalog keys of the order's own messages. */
export const PROMO_ERRORS = {
  empty: 'tickets.enterPromoCode',
  noTickets: 'tickets.chooseTicketFirst',
  quote: 'tickets.quoteFailed',
} as const;

export interface TicketOrderState {
  /** The event's types once read; empty while loading, on a free event, or if they could not be read. */
  types: TicketTypeView[];
  typesLoading: boolean;
  /** Several types: the box lists them with a quantity each. */
  multi: boolean;
  quantity: number;
  setQuantity: (quantity: number) => void;
  selection: TypeSelection;
  setTypeQuantity: (typeId: string, quantity: number) => void;
  /** The order as it stands (with the quote's discount when it is current). */
  order: TicketOrder;
  /** The server's figures for the current seats and applied code; null without a code (and without an on-top fee). */
  quote: OrderQuote | null;
  codeText: string;
  setCodeText: (text: string) => void;
  appliedCode: string | null;
  applyCode: () => void;
  removeCode: () => void;
  /** A quote is being asked for. */
  quoting: boolean;
  /** The refusal of the code, shown at the field. */
  codeError: string | null;
  /** A refusal of the seats chosen (e.g. more than a type's maximum). */
  orderError: string | null;
  /** Something is chosen and the price shown is the one that will be charged. */
  ready: boolean;
  /** Read the types again (after a purchase: what is left changed). */
  reloadTypes: () => void;
}

export function useTicketOrder(event: EventItem, options: { userId: string | null; enabled: boolean; dateId?: string | undefined }): TicketOrderState {
  const eventId = event._id;
  const types = useQuery({ queryKey: ['ticket-types', eventId, options.userId], queryFn: ({ signal }) => getTicketTypes(eventId, signal), enabled: options.enabled && event.isPaid });
  const list = types.data?.ticketTypes ?? [];
  const multi = list.length > 1;

  const [quantity, setQuantity] = useState(1);
  // Untouched (null), one ticket of the first type on sale is chosen; the buyer's own choice replaces it.
  const [chosen, setChosen] = useState<TypeSelection | null>(null);
  const initial = useMemo(() => defaultSelection(types.data?.ticketTypes ?? []), [types.data]);
  const selection = chosen ?? initial;
  const [codeText, setCodeText] = useState('');
  const [appliedCode, setAppliedCode] = useState<string | null>(null);
  /** The last quote and the seats it was asked for. */
  const [quoted, setQuoted] = useState<{ key: string; quote: OrderQuote } | null>(null);
  const [quoting, setQuoting] = useState(false);
  const [codeError, setCodeError] = useState<string | null>(null);
  const [orderError, setOrderError] = useState<string | null>(null);
  const controllerRef = useRef<AbortController | null>(null);

  const draft = multi ? multiTypeOrder(list, selection) : singleTypeOrder(quantity, list[0]?.price ?? event.ticketPrice);
  const seatsKey = JSON.stringify([draft.items ?? draft.quantity, options.dateId ?? null]);
  const quote = quoted && quoted.key === seatsKey ? quoted.quote : null;
  const order = multi ? multiTypeOrder(list, selection, quote) : singleTypeOrder(quantity, draft.lines[0]!.price, quote, list[0]?.instalments);

  const draftRef = useRef({ draft, seatsKey, dateId: options.dateId });
  useEffect(() => {
    draftRef.current = { draft, seatsKey, dateId: options.dateId };
  });

  const askQuote = useCallback(
    async (code: string | null) => {
      const { draft: current, seatsKey: key, dateId } = draftRef.current;
      controllerRef.current?.abort();
      setCodeError(null);
      setOrderError(null);
      if (current.quantity === 0) {
        setOrderError(t(PROMO_ERRORS.noTickets));
        return;
      }
      const controller = new AbortController();
      controllerRef.current = controller;
      setQuoting(true);
      try {
        const result = await quoteOrder(eventId, { items: current.items, quantity: current.quantity, promoCode: code, dateId }, controller.signal);
        if (controller.signal.aborted) return;
        if (code === null) {
          // The fee's quote (no code): only its figures.
          setQuoted({ key, quote: result });
          return;
        }
        if (controller.signal.aborted) return;
        setAppliedCode(result.promoCode);
        setQuoted({ key, quote: result });
      } catch (error) {
        if (controller.signal.aborted) return;
        const refusal = getServerFieldError(error);
        if (refusal?.field === 'promoCode') {
          setCodeError(refusal.msg);
          setAppliedCode(null);
          setQuoted(null);
        } else {
          setOrderError(getErrorMessage(error, t(PROMO_ERRORS.quote)));
        }
      } finally {
        if (controllerRef.current === controller) {
          controllerRef.current = null;
          setQuoting(false);
        }
      }
    },
    [eventId],
  );

  // Buyers of an event whose platform fee is paid on top see the server's total (only the server knows the fee).
  const feeOnTop = event.feeMode === 'on_top';
  const needsQuote = appliedCode !== null || (feeOnTop && draft.quantity > 0);
  // New seats under an applied code (or an on-top fee): ask for their price (after a short pause, so typing 1-2-3 asks once).
  const stale = needsQuote && quoted?.key !== seatsKey;
  useEffect(() => {
    if (!stale) return;
    const timer = window.setTimeout(() => void askQuote(appliedCode), 250);
    return () => window.clearTimeout(timer);
  }, [stale, appliedCode, seatsKey, askQuote]);

  useEffect(() => () => controllerRef.current?.abort(), []);

  const applyCode = useCallback(() => {
    const code = codeText.trim();
    if (!code) {
      setCodeError(t(PROMO_ERRORS.empty));
      return;
    }
    void askQuote(code);
  }, [askQuote, codeText]);

  const removeCode = useCallback(() => {
    controllerRef.current?.abort();
    controllerRef.current = null;
    setQuoting(false);
    setAppliedCode(null);
    setQuoted(null);
    setCodeError(null);
    setOrderError(null);
    setCodeText('');
  }, []);

  const setTypeQuantity = useCallback((typeId: string, value: number) => {
    setChosen((current) => ({ ...(current ?? initial), [typeId]: value }));
    setOrderError(null);
  }, [initial]);

  return {
    types: list,
    typesLoading: types.isLoading,
    multi,
    quantity,
    setQuantity,
    selection,
    setTypeQuantity,
    order,
    quote,
    codeText,
    setCodeText: (text) => {
      setCodeText(text);
      if (codeError) setCodeError(null);
    },
    appliedCode,
    applyCode,
    removeCode,
    quoting,
    codeError,
    orderError,
    ready: order.quantity > 0 && !quoting && (!needsQuote || quote !== null),
    reloadTypes: () => void types.refetch(),
  };
}
