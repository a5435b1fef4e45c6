import type { Mail } from '../../lib/mailer.js';
import { escapeHtml } from '../../lib/html.js';

export interface SelfCancelMailInput {
  to: string;
  username: string;
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
  const url = `${input.publicUrl}/events/${event.id}`;
  const when = `${event.startsAt.toISOString().slice(0, 10)} ${event.startsAt.toISOString().slice(11, 16)}`;
  const total = input.refunds.reduce((sum, refund) => sum + refund.amount, 0);
  const phones = [...new Set(input.refunds.map((refund) => refund.phone).filter(Boolean))].join(' and ');
  const ticketLine = `You cancelled ${input.tickets > 1 ? `${input.tickets} tickets` : 'a ticket'} for "${event.title}" (${when} Nairobi time, ${event.location}): ${input.tickets > 1 ? 'they no longer admit' : 'it no longer admits'} anyone, and the seat${input.tickets > 1 ? 's are' : ' is'} free for someone else.`;
  const refundLine =
    total > 0
      ? `Your refund of KES ${total.toLocaleString('en-KE')} is on its way back to M-Pesa${phones ? ` ${phones}` : ''}: you need to do nothing. Transaction History on your profile shows when it arrives.`
      : 'Nothing is refunded for these tickets.';
  const text = `Hello ${input.username},\n\n${ticketLine}\n${refundLine}\n\nEvent page: ${url}\n`;
  const html =
    `<p>Hello ${escapeHtml(input.username)},</p>` +
    `<p>${escapeHtml(ticketLine)}</p>` +
    `<p>${escapeHtml(refundLine)}</p>` +
    `<p><a href="${escapeHtml(url)}">Event page</a></p>`;
  return { to: input.to, subject: `Tickets cancelled: ${event.title}`.slice(0, 200), text, html };
}
