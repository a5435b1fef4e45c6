import type { Mail } from '../../lib/mailer.js';
import { escapeHtml } from '../../lib/html.js';
import { formatShillings } from '@tukio/shared/shillings';
import { mailWallClock, translator, type Language } from '../../lib/i18n.js';
import { refundPhones } from './cancellation-mail.js';

export interface SelfCancelMailInput {
  to: string;
  username: string;
  language: Language;
  event: { id: string; title: string; startsAt: Date; location: string };
  /** Tickets the holder cancelled. */
  tickets: number;
  /** What is coming back, per payment (none for free tickets). */
  refunds: Array<{ amount: number; phone: string }>;
  publicUrl: string;
}

/** The confirmation a holder gets after cancelling their own tickets: which ones, and what comes back. */
export function buildSelfCancelMail(input: SelfCancelMailInput): Mail {
  const { event } = input;
  const t = translator(input.language);
  const url = `${input.publicUrl}/events/${event.id}`;
  const when = mailWallClock(event.startsAt, input.language);
  const total = input.refunds.reduce((sum, refund) => sum + refund.amount, 0);
  const ticketLine = t('refunds.selfCancelTickets', { count: input.tickets, title: event.title, when, location: event.location });
  const refundLine =
    total > 0 ? t('refunds.selfCancelRefund', { amount: formatShillings(total), phones: refundPhones(input.refunds, input.language) }) : t('refunds.selfCancelNothing');
  const text = `${t('mail.hello', { username: input.username })}\n\n${ticketLine}\n${refundLine}\n\n${t('mail.eventPage')}: ${url}\n`;
  const html =
    `<p>${t('mail.hello', { username: escapeHtml(input.username) })}</p>` +
    `<p>${escapeHtml(ticketLine)}</p>` +
    `<p>${escapeHtml(refundLine)}</p>` +
    `<p><a href="${escapeHtml(url)}">${t('mail.eventPage')}</a></p>`;
  return { to: input.to, subject: t('refunds.selfCancelSubject', { title: event.title }).slice(0, 200), text, html };
}
