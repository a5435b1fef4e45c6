import type { OrderRow, PaymentRow } from './payments.repository.js';

export const PENDING_MESSAGE = 'Payment is still pending. Complete the M-Pesa prompt on your phone, then confirm again.';

/** A payment as its owner's status call describes it (confirmPayment, the payment dialog's polls). */
export function describePayment(
  payment: Pick<PaymentRow, 'status' | 'resultCode' | 'resultDesc' | 'checkoutRequestId' | 'eventId' | 'amount' | 'mpesaReceiptNumber' | 'createdAt'>,
  order: Pick<OrderRow, 'status' | 'quantity'>,
  title: string,
) {
  // The order was paid by another payment of it (from the M-Pesa menu after this prompt, docs/decisions/paybill.md):
  // the purchase succeeded, whatever became of this prompt.
  const status = order.status === 'paid' ? 'success' : payment.status;
  let resultDesc: string;
  if (status === 'pending') resultDesc = PENDING_MESSAGE;
  else if (status === 'success' && order.status === 'paid') resultDesc = `Payment successful. Your ${order.quantity > 1 ? `${order.quantity} tickets are` : 'ticket is'} ready.`;
  else if (status === 'success' && order.status === 'refund_due')
    resultDesc = 'Payment received, but no tickets could be issued (the event sold out or was cancelled while it was processing). Your payment will be refunded.';
  else if (status === 'success' && order.status === 'reserved')
    resultDesc = 'Payment received: your seats are reserved. Pay the rest by the due date from your profile; your tickets come when it is all paid.';
  else if (status === 'cancelled') resultDesc = 'Payment failed or cancelled: the request was cancelled on the phone.';
  else resultDesc = `Payment failed or cancelled: ${payment.resultDesc ?? 'M-Pesa did not complete the payment.'}`;
  return {
    checkoutRequestId: payment.checkoutRequestId,
    status,
    orderStatus: order.status,
    success: status === 'success' && order.status === 'paid',
    resultDesc,
    resultCode: status === 'pending' ? null : payment.resultCode,
    eventId: payment.eventId,
    eventTitle: title,
    amount: payment.amount,
    quantity: order.quantity,
    mpesaReceiptNumber: payment.mpesaReceiptNumber,
    createdAt: payment.createdAt.toISOString(),
    ageSeconds: Math.floor((Date.now() - payment.createdAt.getTime()) / 1000),
  };
}

export type PaymentView = ReturnType<typeof describePayment>;
