import { formatShillings } from '@tukio/shared/shillings';
import { escapeHtml } from '../../lib/html.js';
import { mailWallClock, translator, type Language } from '../../lib/i18n.js';
import type { Mail } from '../../lib/mailer.js';
import { refundPhones } from './cancellation-mail.js';

interface SeriesDateMailBase {
  to: string;
  /** Null for a guest buyer ("Hello,"). */
  username: string | null;
  language: Language;
  event: { id: string; title: string; location: string };
  /** Tickets for this date itself, and all-dates passes, the holder has. */
  dated: number;
  passes: number;
  publicUrl: string;
}

export interface DateCancelledMailInput extends SeriesDateMailBase {
  startsAt: Date;
  reason: string;
  /** What comes back to this holder for the date's orders. */
  refunds: Array<{ amount: number; phone: string }>;
}

export interface DateMovedMailInput extends SeriesDateMailBase {
  before: { startsAt: Date };
  after: { startsAt: Date };
}

function frame(input: SeriesDateMailBase, subject: string, headline: string, headlineHtml: string, lines: string[]): Mail {
  const t = translator(input.language);
  const url = `${input.publicUrl}/events/${input.event.id}`;
  const hello = input.username === null ? t('mail.helloGuest') : t('mail.hello', { username: input.username });
  const helloHtml = input.username === null ? t('mail.helloGuest') : t('mail.hello', { username: escapeHtml(input.username) });
  const text = `${hello}\n\n${headline}\n${lines.join('\n')}\n\n${t('mail.eventPage')}: ${url}\n`;
  const html = `<p>${helloHtml}</p><p>${headlineHtml}</p><p>${lines.map(escapeHtml).join('<br>')}</p><p><a href="${escapeHtml(url)}">${t('mail.eventPage')}</a></p>`;
  return { to: input.to, subject: subject.slice(0, 200), text, html };
}

/**
 * One date of a series was cancelled (docs/decisions/event-series.md): which date, why, that the holder's tickets
 * for it are void and their refund is on its way; an all-dates pass holder reads that the pass stays valid.
 */
export function buildDateCancelledMail(input: DateCancelledMailInput): Mail {
  const t = translator(input.language);
  const when = mailWallClock(input.startsAt, input.language);
  const { title, location } = input.event;
  const lines = [t('refunds.cancelReason', { reason: input.reason })];
  if (input.dated > 0) {
    lines.push(t('refunds.cancelTickets', { count: input.dated }));
    const total = input.refunds.reduce((sum, refund) => sum + refund.amount, 0);
    lines.push(total > 0 ? t('refunds.cancelRefund', { amount: formatShillings(total), phones: refundPhones(input.refunds, input.language) }) : t('refunds.cancelNothing'));
  }
  if (input.passes > 0) lines.push(t('series.datePassNote'));
  return frame(
    input,
    t('series.dateCancelSubject', { title, when }),
    t('series.dateCancelHeadline', { title, when, location }),
    t('series.dateCancelHeadlineHtml', { title: escapeHtml(title), when: escapeHtml(when), location: escapeHtml(location) }),
    lines,
  );
}

/** One date of a series moved: the old and the new time; the holder's tickets stay valid for it. */
export function buildDateMovedMail(input: DateMovedMailInput): Mail {
  const t = translator(input.language);
  const { title } = input.event;
  const lines = [
    t('events.movedWhen', { when: mailWallClock(input.after.startsAt, input.language), before: mailWallClock(input.before.startsAt, input.language) }),
    t('events.movedTickets'),
  ];
  return frame(input, t('series.dateMovedSubject', { title }), t('series.dateMovedHeadline', { title }), t('series.dateMovedHeadlineHtml', { title: escapeHtml(title) }), lines);
}
