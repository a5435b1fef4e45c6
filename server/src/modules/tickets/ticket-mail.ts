import type { Mail, MailAttachment } from '../../lib/mailer.js';
import { realInstant } from '../../lib/event-clock.js';
import { escapeHtml } from '../../lib/html.js';

export interface TicketMailInput {
  to: string;
  /** Null for a guest buyer: no account name to greet. */
  username: string | null;
  /** Where the holder sees the tickets when not on a profile (a guest's ticket page). */
  ticketsUrl?: string | undefined;
  event: { id: string; title: string; startsAt: Date; location: string };
  tickets: Array<{ id: string; code: string }>;
  /** What was paid for them by M-Pesa (none for free tickets or a transfer): the buyer's proof of payment. */
  payment?: { amount: number; receipt: string | null } | undefined;
  publicUrl: string;
  /** Optional PNG renderer for the QR of a code; without it the mail carries the code as text only. */
  qrPng?: ((code: string) => Promise<Buffer>) | undefined;
}

const icsDate = (date: Date) => date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

/** RFC 5545 text: escape backslash, semicolon, comma and newlines; fold lines at 75 octets. */
function icsText(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

function fold(line: string): string {
  const bytes = Buffer.from(line);
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let current = '';
  for (const char of line) {
    const limit = parts.length === 0 ? 75 : 74;
    if (Buffer.byteLength(current + char) > limit) {
      parts.push(current);
      current = '';
    }
    current += char;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

export function buildIcs(input: { uid: string; title: string; startsAt: Date; location: string; url: string; description: string }): string {
  const start = realInstant(input.startsAt);
  const end = new Date(start.getTime() + 3 * 60 * 60 * 1000);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Tukio//Tickets//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${input.uid}@tukio`,
    `DTSTAMP:${icsDate(new Date())}`,
    `DTSTART:${icsDate(start)}`,
    `DTEND:${icsDate(end)}`,
    `SUMMARY:${icsText(input.title)}`,
    `LOCATION:${icsText(input.location)}`,
    `DESCRIPTION:${icsText(input.description)}`,
    `URL:${input.url}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
}

export async function buildTicketMail(input: TicketMailInput): Promise<Mail> {
  const { event, tickets } = input;
  const url = `${input.publicUrl}/events/${event.id}`;
  const when = `${event.startsAt.toISOString().slice(0, 10)} ${event.startsAt.toISOString().slice(11, 16)}`;
  const count = tickets.length;
  const codes = tickets.map((ticket, index) => `Ticket ${index + 1}: ${ticket.code}`).join('\n');
  const attachments: MailAttachment[] = [
    {
      filename: 'event.ics',
      content: buildIcs({ uid: `${event.id}-${tickets[0]?.id ?? 'ticket'}`, title: event.title, startsAt: event.startsAt, location: event.location, url, description: `Your Tukio ticket${count > 1 ? 's' : ''}: ${url}` }),
      contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
    },
  ];
  const { qrPng } = input;
  if (qrPng) {
    const images = await Promise.all(
      tickets.map(async (ticket, index): Promise<MailAttachment> => ({ filename: `ticket-${index + 1}.png`, content: await qrPng(ticket.code), contentType: 'image/png', cid: `ticket-${ticket.id}` })),
    );
    attachments.push(...images);
  }
  const { payment } = input;
  const paidLine = payment ? `Paid: Ksh.${payment.amount.toLocaleString('en-US')} by M-Pesa${payment.receipt ? `, receipt ${payment.receipt}` : ''}.` : '';
  const text =
    `Hello${input.username ? ` ${input.username}` : ''},\n\n` +
    `You have ${count} ticket${count > 1 ? 's' : ''} for "${event.title}".\n` +
    (paidLine ? `${paidLine}\n` : '') +
    `When: ${when} (Nairobi time)\nWhere: ${event.location}\nEvent page: ${url}\n\n` +
    `Show the QR code at the door (${input.ticketsUrl ? `your ticket page shows it too: ${input.ticketsUrl}` : 'My Tickets on your profile shows it too'}). Ticket codes:\n${codes}\n\n` +
    `The calendar file attached adds the event to your calendar.\n`;
  const html =
    `<p>Hello${input.username ? ` ${escapeHtml(input.username)}` : ''},</p>` +
    `<p>You have ${count} ticket${count > 1 ? 's' : ''} for <strong>${escapeHtml(event.title)}</strong>.</p>` +
    (paidLine ? `<p>${escapeHtml(paidLine)}</p>` : '') +
    `<p>When: ${escapeHtml(when)} (Nairobi time)<br>Where: ${escapeHtml(event.location)}<br><a href="${escapeHtml(url)}">Event page</a>` +
    (input.ticketsUrl ? `<br><a href="${escapeHtml(input.ticketsUrl)}">Your ticket page</a>` : '') +
    `</p>` +
    tickets
      .map(
        (ticket, index) =>
          `<p>Ticket ${index + 1}${input.qrPng ? `<br><img src="cid:ticket-${ticket.id}" alt="Ticket QR code" width="240" height="240">` : ''}<br><code>${escapeHtml(ticket.code)}</code></p>`,
      )
      .join('');
  return { to: input.to, subject: `Your Tukio ticket${count > 1 ? 's' : ''}: ${event.title}`.slice(0, 200), text, html, attachments };
}
