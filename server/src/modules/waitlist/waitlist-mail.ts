import { escapeHtml } from '../../lib/html.js';
import type { Mail } from '../../lib/mailer.js';

export interface WaitlistOfferMailInput {
  to: string;
  username: string;
  event: { id: string; title: string; startsAt: Date; location: string; isPaid: boolean };
  seats: number;
  expiresAt: Date;
  publicUrl: string;
}

/** An instant as people in Kenya read it (offers expire at a real moment, unlike events' wall-clock starts). */
const nairobiTime = new Intl.DateTimeFormat('en-KE', { timeZone: 'Africa/Nairobi', weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hour12: false });

/** The email that tells the next person on a waitlist that seats are held for them, and until when. */
export function buildWaitlistOfferMail(input: WaitlistOfferMailInput): Mail {
  const { event } = input;
  const url = `${input.publicUrl}/events/${event.id}`;
  const when = `${event.startsAt.toISOString().slice(0, 10)} ${event.startsAt.toISOString().slice(11, 16)}`;
  const seats = input.seats > 1 ? `${input.seats} seats are` : 'A seat is';
  const until = nairobiTime.format(input.expiresAt);
  const action = event.isPaid ? 'pay with M-Pesa on the event page' : 'register on the event page';
  const lines = [
    `${seats} free for "${event.title}" (${when} Nairobi time, ${event.location}), and you are next on the waitlist.`,
    `We hold ${input.seats > 1 ? 'them' : 'it'} for you until ${until} (Nairobi time): ${action} before then. After that the offer passes to the next person.`,
  ];
  const text = `Hello ${input.username},\n\n${lines.join('\n')}\n\nEvent page: ${url}\n`;
  const html =
    `<p>Hello ${escapeHtml(input.username)},</p>` +
    lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('') +
    `<p><a href="${escapeHtml(url)}">${event.isPaid ? 'Get your tickets' : 'Register'}</a></p>`;
  return { to: input.to, subject: `A seat is held for you: ${event.title}`.slice(0, 200), text, html };
}

/** The offer as one SMS: what, until when, where to take it. */
export function waitlistOfferText(input: { title: string; seats: number; expiresAt: Date; url: string }): string {
  const title = input.title.length > 60 ? `${input.title.slice(0, 57)}...` : input.title;
  const seats = input.seats > 1 ? `${input.seats} seats` : 'A seat';
  return `Tukio: ${seats} for ${title} is held for you until ${nairobiTime.format(input.expiresAt)}. Get it: ${input.url}`;
}
