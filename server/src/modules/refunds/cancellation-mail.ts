import type { Mail } from '../../lib/mailer.js';
import { escapeHtml } from '../../lib/html.js';

export interface CancellationMailInput {
  to: string;
  username: string;
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
  const url = `${input.publicUrl}/events/${event.id}`;
  const when = `${event.startsAt.toISOString().slice(0, 10)} ${event.startsAt.toISOString().slice(11, 16)}`;
  const total = input.refunds.reduce((sum, refund) => sum + refund.amount, 0);
  const phones = [...new Set(input.refunds.map((refund) => refund.phone).filter(Boolean))].join(' and ');
  const ticketLine =
    input.tickets > 0 ? `Your ${input.tickets > 1 ? `${input.tickets} tickets are` : 'ticket is'} no longer valid.` : 'Your order for it has been cancelled.';
  const refundLine =
    total > 0
      ? `Your refund of KES ${total.toLocaleString('en-KE')} is on its way back to M-Pesa${phones ? ` ${phones}` : ''}: you need to do nothing, and we will keep trying until it arrives.`
      : 'You paid nothing for it, so there is nothing to refund.';
  const text =
    `Hello ${input.username},\n\n` +
    `"${event.title}" (${when} Nairobi time, ${event.location}) has been cancelled.\n` +
    `Reason given: ${input.reason}\n\n` +
    `${ticketLine}\n${refundLine}\n\nEvent page: ${url}\n`;
  const html =
    `<p>Hello ${escapeHtml(input.username)},</p>` +
    `<p><strong>${escapeHtml(event.title)}</strong> (${escapeHtml(when)} Nairobi time, ${escapeHtml(event.location)}) has been cancelled.</p>` +
    `<p>Reason given: ${escapeHtml(input.reason)}</p>` +
    `<p>${escapeHtml(ticketLine)}<br>${escapeHtml(refundLine)}</p>` +
    `<p><a href="${escapeHtml(url)}">Event page</a></p>`;
  return { to: input.to, subject: `Cancelled: ${event.title}`.slice(0, 200), text, html };
}
