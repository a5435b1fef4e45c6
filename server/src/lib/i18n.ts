import { compileCatalog } from '@tukio/shared/compile-messages';
import { DEFAULT_LANGUAGE, type Language } from '@tukio/shared/languages';
import { renderMessage, type Messages } from '@tukio/shared/messages';
import en from '../locales/en/mail.json' with { type: 'json' };
import sw from '../locales/sw/mail.json' with { type: 'json' };

export type { Language };

/**
 * Mail and SMS in the recipient's language (docs/decisions/languages.md, "Server"). The catalogs are flat
 * JSON, key → ICU MessageFormat string, in the client's format: `server/src/locales/{en,sw}/mail.json`,
 * compiled once at start by Lingui's compiler and rendered as the client renders its own
 * (@tukio/shared/compile-messages, @tukio/shared/messages).
 */
export type MessageKey = keyof typeof en;
export type MessageParams = Record<string, string | number>;

const catalogs: Record<Language, Messages> = {
  en: compileCatalog(en, 'server/src/locales/en/mail.json'),
  sw: compileCatalog(sw, 'server/src/locales/sw/mail.json'),
};

/** The catalog text for `key` in `language` (English when the key is missing there), formatted with `params`. */
export function translate(language: Language, key: MessageKey, params: MessageParams = {}): string {
  const message = catalogs[language][key] ?? catalogs[DEFAULT_LANGUAGE][key];
  return message === undefined ? key : renderMessage(message, params, language);
}

/** `translate` bound to one language: what a mail or SMS builder is given. */
export type Translate = (key: MessageKey, params?: MessageParams) => string;
export const translator = (language: Language): Translate => (key, params) => translate(language, key, params);

const swWallClock = new Intl.DateTimeFormat('sw-KE', { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/**
 * An event's start as mails say it. Starts are the Nairobi wall clock kept in UTC fields, so they are read
 * back in UTC: English keeps its `YYYY-MM-DD HH:MM`; Kiswahili names the day and month.
 */
export function mailWallClock(date: Date, language: Language): string {
  if (language === 'sw') return swWallClock.format(date);
  return `${date.toISOString().slice(0, 10)} ${date.toISOString().slice(11, 16)}`;
}


const nairobiOptions: Intl.DateTimeFormatOptions = { timeZone: 'Africa/Nairobi', weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hour12: false };
const nairobiFormats = {
  en: [new Intl.DateTimeFormat('en-KE', nairobiOptions), new Intl.DateTimeFormat('en-KE', { ...nairobiOptions, year: 'numeric' })],
  sw: [new Intl.DateTimeFormat('sw-KE', nairobiOptions), new Intl.DateTimeFormat('sw-KE', { ...nairobiOptions, year: 'numeric' })],
} satisfies Record<Language, Intl.DateTimeFormat[]>;

/**
 * A real instant (an offer's or a link's expiry, unlike events' wall-clock starts) as people in Kenya read it in
 * mails and SMS, in each language: weekday, day, month and time in Nairobi, and the year when `withYear`.
 */
export function nairobiTime(date: Date, language: Language, withYear = false): string {
  return nairobiFormats[language][withYear ? 1 : 0]!.format(date);
}
