import { escapeHtml } from '../../lib/html.js';
import { mailWallClock, translator, type Language } from '../../lib/i18n.js';
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

/** An instant as people in Kenya read it (offers expire at a real moment, unlike events' wall-clock starts), in each language. */
const nairobiTimeOptions: Intl.DateTimeFormatOptions = { timeZone: 'Africa/Nairobi', weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hour12: false };
const nairobiTime: Record<Language, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en-KE', nairobiTimeOptions),
  sw: new Intl.DateTimeFormat('sw-KE', nairobiTimeOptions),
};

/** The email that tells the next person on a waitlist that seats are held for them, and until when. */
export function buildWaitlistOfferMail(input: WaitlistOfferMailInput): Mail {
  const { event } = input;
  const t = translator(input.language);
  const url = `${input.publicUrl}/events/${event.id}`;
  const when = mailWallClock(event.startsAt, input.language);
  const until = nairobiTime[input.language].format(input.expiresAt);
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
  return translator(input.language)('waitlist.offerSms', { seats: input.seats, title, until: nairobiTime[input.language].format(input.expiresAt), url: input.url });
}
