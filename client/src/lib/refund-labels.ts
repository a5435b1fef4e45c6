/* How a refund's state and reason read, wherever refunds are listed (the admin's ledger, an event's organiser). */

export type RefundStatus = 'due' | 'sent' | 'succeeded' | 'failed';
export type RefundReason = 'sold_out' | 'event_cancelled' | 'late_payment' | 'self_cancel' | 'admin';

/** The badge of each state (`tone` picks the badge colour). */
export const REFUND_STATUS: Record<RefundStatus, { tone: string; label: string }> = {
  due: { tone: 'pending', label: 'Due' },
  sent: { tone: 'pending', label: 'Sent to M-Pesa' },
  succeeded: { tone: 'success', label: 'Refunded' },
  failed: { tone: 'failed', label: 'Failed' },
};

export const REFUND_REASON: Record<RefundReason, string> = {
  sold_out: 'Paid after the event sold out',
  event_cancelled: 'Event cancelled',
  late_payment: 'Payment arrived too late',
  self_cancel: 'Cancelled by the buyer',
  admin: 'Refunded by an admin',
};
