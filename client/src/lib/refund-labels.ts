/* How a refund's state and reason read, wherever refunds are listed (the admin's ledger, an event's organiser). */
import { translatedLabels } from './i18n';

export type RefundStatus = 'due' | 'sent' | 'succeeded' | 'failed';
export type RefundReason = 'sold_out' | 'event_cancelled' | 'late_payment' | 'self_cancel' | 'admin' | 'reservation_lapsed';

const STATUS_LABEL = translatedLabels<RefundStatus>({
  due: 'ui.refundDue',
  sent: 'ui.refundSent',
  succeeded: 'ui.refundSucceeded',
  failed: 'ui.refundFailed',
});
const badge = (status: RefundStatus, tone: string) => ({
  tone,
  get label() {
    return STATUS_LABEL[status];
  },
});

/** The badge of each state (`tone` picks the badge colour; `label` in the current language). */
export const REFUND_STATUS: Record<RefundStatus, { tone: string; label: string }> = {
  due: badge('due', 'pending'),
  sent: badge('sent', 'pending'),
  succeeded: badge('succeeded', 'success'),
  failed: badge('failed', 'failed'),
};

export const REFUND_REASON: Readonly<Record<RefundReason, string>> = translatedLabels<RefundReason>({
  sold_out: 'ui.refundReasonSoldOut',
  event_cancelled: 'ui.refundReasonEventCancelled',
  late_payment: 'ui.refundReasonLatePayment',
  self_cancel: 'ui.refundReasonSelfCancel',
  admin: 'ui.refundReasonAdmin',
  reservation_lapsed: 'ui.refundReasonReservationLapsed',
});
