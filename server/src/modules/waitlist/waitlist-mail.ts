import { escapeHtml } from '../../lib/html.js';
import { mailWallClock, nairobiTime, translator, type Language } from '../../lib/i18n.js';
import type { Mail } from '../../lib/mailer.js';

export interface WaitlistOfferMailInput {
  to: string;
  username: string;
  language: Language;
  event: { id: string; title: string; startsAt: Date; location: string; isPaid: boolean };
  seats: number;
  expiresAt: Date;
  publicUrl: string;
}

/** The email that tells the next person on a waitlist that seats are held for them, and until when. */
export function buildWaitlistOfferMail(input: WaitlistOfferMailInput): Mail {
  const { event } = input;
  const t = translator(input.language);
  const url = `${input.publicUrl}/events/${event.id}`;
  const when = mailWallClock(event.startsAt, input.language);
  const until = nairobiTime(input.expiresAt, input.language);
  const paid = event.isPaid ? 'yes' : 'no';
  const lines = [
    t('waitlist.offerSeats', { seats: input.seats, title: event.title, when, location: event.location }),
    t('waitlist.offerHold', { seats: input.seats, until, paid }),
  ];
  const text = `${t('mail.hello', { username: input.username })}\n\n${lines.join('\n')}\n\n${t('mail.eventPage')}: ${url}\n`;
  const html =
    `<p>${t('mail.hello', { username: escapeHtml(input.username) })}</p>` +
    lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('') +
    `<p><a href="${escapeHtml(url)}">${t('waitlist.offerLink', { paid })}</a></p>`;
  return { to: input.to, subject: t('waitlist.offerSubject', { title: event.title }).slice(0, 200), text, html };
}

/** The offer as one SMS: what, until when, where to take it. */
export function waitlistOfferText(input: { language: Language; title: string; seats: number; expiresAt: Date; url: string }): string {
  const title = input.title.length > 60 ? `${input.title.slice(0, 57)}...` : input.title;
  return translator(input.language)('waitlist.offerSms', { seats: input.seats, title, until: nairobiTime(input.expiresAt, input.language), url: input.url });
}
