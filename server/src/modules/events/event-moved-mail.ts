import { escapeHtml } from '../../lib/html.js';
import { mailWallClock, translator, type Language } from '../../lib/i18n.js';
import type { Mail } from '../../lib/mailer.js';

export interface EventMovedMailInput {
  to: string;
  username: string;
  language: Language;
  eventId: string;
  title: string;
  before: { startsAt: Date; location: string };
  after: { startsAt: Date; location: string };
  publicUrl: string;
}

/** What a ticket holder is told when an approved change moves the event's date or place: old and new, in their language. */
export function buildEventMovedMail(input: EventMovedMailInput): Mail {
  const t = translator(input.language);
  const url = `${input.publicUrl}/events/${input.eventId}`;
  const lines: string[] = [];
  if (input.before.startsAt.getTime() !== input.after.startsAt.getTime()) {
    lines.push(t('events.movedWhen', { when: mailWallClock(input.after.startsAt, input.language), before: mailWallClock(input.before.startsAt, input.language) }));
  }
  if (input.before.location !== input.after.location) lines.push(t('events.movedWhere', { location: input.after.location, before: input.before.location }));
  const text =
    `${t('mail.hello', { username: input.username })}\n\n${t('events.movedHeadline', { title: input.title })}\n` +
    `${lines.join('\n')}\n\n${t('events.movedTickets')}\n\n${t('mail.eventPage')}: ${url}\n`;
  const html =
    `<p>${t('mail.hello', { username: escapeHtml(input.username) })}</p>` +
    `<p>${t('events.movedHeadlineHtml', { title: escapeHtml(input.title) })}</p>` +
    `<p>${lines.map(escapeHtml).join('<br>')}</p>` +
    `<p>${escapeHtml(t('events.movedTickets'))}</p>` +
    `<p><a href="${escapeHtml(url)}">${t('mail.eventPage')}</a></p>`;
  return { to: input.to, subject: t('events.movedSubject', { title: input.title }).slice(0, 200), text, html };
}
