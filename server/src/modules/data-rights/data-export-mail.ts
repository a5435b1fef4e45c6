import { escapeHtml } from '../../lib/html.js';
import { nairobiTime, translator, type Language } from '../../lib/i18n.js';
import type { Mail } from '../../lib/mailer.js';

/** The mail with the single-use download link of a user's data export. */
export function buildDataExportMail(input: { to: string; username: string; language: Language; url: string; expiresAt: Date }): Mail {
  const t = translator(input.language);
  const until = nairobiTime(input.expiresAt, input.language);
  const lines = [t('dataExport.ready'), t('dataExport.link', { until })];
  const text = `${t('mail.hello', { username: input.username })}\n\n${lines.join('\n')}\n${input.url}\n\n${t('dataExport.notYou')}\n`;
  const html =
    `<p>${t('mail.hello', { username: escapeHtml(input.username) })}</p>` +
    lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('') +
    `<p><a href="${escapeHtml(input.url)}">${escapeHtml(input.url)}</a></p><p>${escapeHtml(t('dataExport.notYou'))}</p>`;
  return { to: input.to, subject: t('dataExport.subject'), text, html };
}
