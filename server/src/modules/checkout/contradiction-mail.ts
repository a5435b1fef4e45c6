import { escapeHtml } from '../../lib/html.js';
import { formatShillings } from '@tukio/shared/shillings';
import { translator, type Language } from '../../lib/i18n.js';
import type { Mail } from '../../lib/mailer.js';

/** A success callback M-Pesa's own answer contradicted, as the buyer's and the admins' notices describe it. */
export interface ContradictionNotice {
  checkoutRequestId: string;
  eventTitle: string;
  amount: number;
  phone: string;
  receipt: string | null;
  providerResultCode: number;
  providerResultDesc: string;
  ticketsVoided: number;
}

const asHtml = (text: string) => `<p>${escapeHtml(text)}</p>`;

/** The buyer's notice: the payment was not received, and which tickets no longer admit anyone. */
export function buildBuyerContradictionMail(to: { email: string; username: string | null; language: Language }, notice: ContradictionNotice): Mail {
  const t = translator(to.language);
  const hello = to.username ? t('mail.hello', { username: to.username }) : t('mail.helloGuest');
  const body = t('payments.reversedText', { amount: formatShillings(notice.amount), title: notice.eventTitle, reason: notice.providerResultDesc, count: notice.ticketsVoided });
  return {
    to: to.email,
    subject: t('payments.reversedSubject', { title: notice.eventTitle }).slice(0, 200),
    text: `${hello}\n\n${body}\n`,
    html: `${asHtml(hello)}${asHtml(body)}`,
  };
}

/** An administrator's notice: the evidence, and what to do about a callback secret that is likely known. */
export function buildAdminContradictionMail(to: { email: string; username: string; language: Language }, notice: ContradictionNotice): Mail {
  const t = translator(to.language);
  const hello = t('mail.hello', { username: to.username });
  const body = t('payments.reversedAdminText', {
    checkoutRequestId: notice.checkoutRequestId,
    amount: formatShillings(notice.amount),
    phone: notice.phone,
    receipt: notice.receipt ?? '-',
    resultCode: notice.providerResultCode,
    reason: notice.providerResultDesc,
    count: notice.ticketsVoided,
  });
  return {
    to: to.email,
    subject: t('payments.reversedAdminSubject', { checkoutRequestId: notice.checkoutRequestId }).slice(0, 200),
    text: `${hello}\n\n${body}\n`,
    html: `${asHtml(hello)}${asHtml(body)}`,
  };
}
