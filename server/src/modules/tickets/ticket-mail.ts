import type { Mail, MailAttachment } from '../../lib/mailer.js';
import { realInstant } from '../../lib/event-clock.js';
import { formatShillings } from '@tukio/shared/shillings';
import { escapeHtml } from '../../lib/html.js';
import { mailWallClock, translator, type Language } from '../../lib/i18n.js';

export interface TicketMailInput {
  to: string;
  /** Null for a guest buyer: no account name to greet. */
  username: string | null;
  /** The holder's language (a guest's: the browser's when they bought). */
  language: Language;
  /** Where the holder sees the tickets when not on a profile (a guest's ticket page). */
  ticketsUrl?: string | undefined;
  event: { id: string; title: string; startsAt: Date; location: string };
  tickets: Array<{ id: string; code: string }>;
  /** What was paid for them by M-Pesa (none for free tickets or a transfer): the buyer's proof of payment. */
  payment?: { amount: number; receipt: string | null; fee?: { amount: number; mode: 'absorbed' | 'on_top' } | undefined } | undefined;
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
  const t = translator(input.language);
  const url = `${input.publicUrl}/events/${event.id}`;
  const when = mailWallClock(event.startsAt, input.language);
  const count = tickets.length;
  const codes = tickets.map((ticket, index) => t('tickets.mailTicketCode', { number: index + 1, code: ticket.code })).join('\n');
  const attachments: MailAttachment[] = [
    {
      filename: 'event.ics',
      content: buildIcs({ uid: `${event.id}-${tickets[0]?.id ?? 'ticket'}`, title: event.title, startsAt: event.startsAt, location: event.location, url, description: t('tickets.icsDescription', { count, url }) }),
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
  const paidLine = payment
    ? payment.receipt
      ? t('tickets.mailPaidReceipt', { amount: formatShillings(payment.amount), receipt: payment.receipt })
      : t('tickets.mailPaid', { amount: formatShillings(payment.amount) })
    : '';
  // The platform fee (docs/decisions/fees.md): what of the payment it was, and who bore it.
  const fee = payment?.fee && payment.fee.amount > 0 ? payment.fee : undefined;
  const feeLine = fee
    ? fee.mode === 'on_top'
      ? t('tickets.mailFeeOnTop', { tickets: formatShillings(payment!.amount - fee.amount), fee: formatShillings(fee.amount) })
      : t('tickets.mailFeeAbsorbed', { fee: formatShillings(fee.amount) })
    : '';
  const hello = (name: string | null) => (name ? t('mail.hello', { username: name }) : t('mail.helloGuest'));
  const hint = input.ticketsUrl ? t('tickets.mailHintTicketPage', { url: input.ticketsUrl }) : t('tickets.mailHintProfile');
  const text =
    `${hello(input.username)}\n\n` +
    `${t('tickets.mailCount', { count, title: event.title })}\n` +
    (paidLine ? `${paidLine}\n` : '') +
    (feeLine ? `${feeLine}\n` : '') +
    `${t('tickets.mailWhen', { when })}\n${t('tickets.mailWhere', { location: event.location })}\n${t('mail.eventPage')}: ${url}\n\n` +
    `${t('tickets.mailShowQr', { hint })}\n${codes}\n\n` +
    `${t('tickets.mailCalendar')}\n`;
  const html =
    `<p>${hello(input.username === null ? null : escapeHtml(input.username))}</p>` +
    `<p>${t('tickets.mailCountHtml', { count, title: escapeHtml(event.title) })}</p>` +
    (paidLine ? `<p>${escapeHtml(paidLine)}</p>` : '') +
    (feeLine ? `<p>${escapeHtml(feeLine)}</p>` : '') +
    `<p>${t('tickets.mailWhen', { when: escapeHtml(when) })}<br>${t('tickets.mailWhere', { location: escapeHtml(event.location) })}<br><a href="${escapeHtml(url)}">${t('mail.eventPage')}</a>` +
    (input.ticketsUrl ? `<br><a href="${escapeHtml(input.ticketsUrl)}">${t('tickets.mailTicketPageLink')}</a>` : '') +
    `</p>` +
    tickets
      .map(
        (ticket, index) =>
          `<p>${t('tickets.mailTicketNumber', { number: index + 1 })}${input.qrPng ? `<br><img src="cid:ticket-${ticket.id}" alt="${t('tickets.mailQrAlt')}" width="240" height="240">` : ''}<br><code>${escapeHtml(ticket.code)}</code></p>`,
      )
      .join('');
  return { to: input.to, subject: t('tickets.mailSubject', { count, title: event.title }).slice(0, 200), text, html, attachments };
}
