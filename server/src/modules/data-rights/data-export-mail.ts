import { escapeHtml } from '../../lib/html.js';
import { translator, type Language } from '../../lib/i18n.js';
import type { Mail } from '../../lib/mailer.js';

const nairobiTimeOptions: Intl.DateTimeFormatOptions = { timeZone: 'Africa/Nairobi', weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hour12: false };
const nairobiTime: Record<Language, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en-KE', nairobiTimeOptions),
  sw: new Intl.DateTimeFormat('sw-KE', nairobiTimeOptions),
};

/** The mail with the single-use download link of a user's data export. */
export function buildDataExportMail(input: { to: string; username: string; language: Language; url: string; expiresAt: Date }): Mail {
  const t = translator(input.language);
  const until = nairobiTime[input.language].format(input.expiresAt);
  const lines = [t('dataExport.ready'), t('dataExport.link', { until })];
  const text = `${t('mail.hello', { username: input.username })}\n\n${lines.join('\n')}\n${input.url}\n\n${t('dataExport.notYou')}\n`;
  const html =
    `<p>${t('mail.hello', { username: escapeHtml(input.username) })}</p>` +
    lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('') +
    `<p><a href="${escapeHtml(input.url)}">${escapeHtml(input.url)}</a></p><p>${escapeHtml(t('dataExport.notYou'))}</p>`;
  return { to: input.to, subject: t('dataExport.subject'), text, html };
}
