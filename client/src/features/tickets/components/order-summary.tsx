/*
 * Subtotal, discount, platform fee and total of the order in the ticket box, once it is more than one price
 * times a number (several types, a promo code, or a fee paid on top). The figures are the server's quote when
 * a code is applied or a fee is added.
 */
import { formatShillings } from '../../../lib/format';
import type { OrderQuote } from '../api/order-api';
import { orderAmount, orderSubtotal, type TicketOrder } from '../lib/ticket-order';
import '../ticket-order.css';
import { useT } from '../../../lib/i18n';

export function OrderSummary({ order, quote }: { order: TicketOrder; quote: OrderQuote | null }) {
  const t = useT();
  if (order.quantity === 0) return null;
  const subtotal = quote?.subtotal ?? orderSubtotal(order);
  const discount = quote?.discount ?? 0;
  const fee = order.feeOnTop ?? 0;
  const total = quote?.amount ?? orderAmount(order);
  return (
    <dl className="order-summary" aria-live="polite">
      {discount > 0 || fee > 0 ? (
        <div>
          <dt>{t('tickets.subtotal')}</dt>
          <dd>{formatShillings(subtotal)}</dd>
        </div>
      ) : null}
      {discount > 0 ? (
        <div className="order-summary__discount">
          <dt>{t('tickets.discount')}{quote?.promoCode ? ` (${quote.promoCode})` : ''}</dt>
          <dd>−{formatShillings(discount)}</dd>
        </div>
      ) : null}
      {fee > 0 ? (
        <div>
          <dt>{t('tickets.serviceFee')}</dt>
          <dd>{formatShillings(fee)}</dd>
        </div>
      ) : null}
      <div className="order-summary__total">
        <dt>
          {t('tickets.totalFor', { count: order.quantity })}
        </dt>
        <dd>{formatShillings(total)}</dd>
      </div>
    </dl>
  );
}
