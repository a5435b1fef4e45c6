import type { Mail } from '../../lib/mailer.js';
import { escapeHtml } from '../../lib/html.js';
import { formatShillings } from '@tukio/shared/shillings';
import { mailWallClock, translator, type Language } from '../../lib/i18n.js';

export interface CancellationMailInput {
  to: string;
  username: string;
  language: Language;
  event: { id: string; title: string; startsAt: Date; location: string };
  reason: string;
  /** Tickets of this holder that are now void. */
  tickets: number;
  /** What is coming back to this holder, per payment (none for a free registration). */
  refunds: Array<{ amount: number; phone: string }>;
  publicUrl: string;
}

/** The notice every holder of a cancelled event gets: why, and that the money is on its way back. */
export function buildCancellationMail(input: CancellationMailInput): Mail {
  const { event } = input;
  const t = translator(input.language);
  const url = `${input.publicUrl}/events/${event.id}`;
  const when = mailWallClock(event.startsAt, input.language);
  const total = input.refunds.reduce((sum, refund) => sum + refund.amount, 0);
  const ticketLine = input.tickets > 0 ? t('refunds.cancelTickets', { count: input.tickets }) : t('refunds.cancelOrder');
  const refundLine = total > 0 ? t('refunds.cancelRefund', { amount: formatShillings(total), phones: refundPhones(input.refunds, input.language) }) : t('refunds.cancelNothing');
  const headline = { title: event.title, when, location: event.location };
  const text =
    `${t('mail.hello', { username: input.username })}\n\n` +
    `${t('refunds.cancelHeadline', headline)}\n` +
    `${t('refunds.cancelReason', { reason: input.reason })}\n\n` +
    `${ticketLine}\n${refundLine}\n\n${t('mail.eventPage')}: ${url}\n`;
  const html =
    `<p>${t('mail.hello', { username: escapeHtml(input.username) })}</p>` +
    `<p>${t('refunds.cancelHeadlineHtml', { title: escapeHtml(event.title), when: escapeHtml(when), location: escapeHtml(event.location) })}</p>` +
    `<p>${t('refunds.cancelReason', { reason: escapeHtml(input.reason) })}</p>` +
    `<p>${escapeHtml(ticketLine)}<br>${escapeHtml(refundLine)}</p>` +
    `<p><a href="${escapeHtml(url)}">${t('mail.eventPage')}</a></p>`;
  return { to: input.to, subject: t('refunds.cancelSubject', { title: event.title }).slice(0, 200), text, html };
}

/**
 * The M-Pesa numbers a refund goes back to, as the refund sentences end: ` 2547… and 2547…` (with its
 * leading space), or nothing when no number is known.
 */
export function refundPhones(refunds: Array<{ phone: string }>, language: Language): string {
  const phones = [...new Set(refunds.map((refund) => refund.phone).filter(Boolean))].join(` ${translator(language)('mail.and')} `);
  return phones ? ` ${phones}` : '';
}
