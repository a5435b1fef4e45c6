import { escapeHtml } from '../../lib/html.js';
import { nairobiTime, translator, type Language } from '../../lib/i18n.js';
import type { Mail } from '../../lib/mailer.js';

interface Account {
  to: string;
  username: string;
  language: Language;
}

/** A greeting, paragraphs, a link and a closing line, as text and HTML (escaped). */
function compose(account: Account, subject: string, paragraphs: string[], url: string, closing?: string): Mail {
  const t = translator(account.language);
  const after = closing ? `\n\n${closing}` : '';
  const text = `${t('mail.hello', { username: account.username })}\n\n${paragraphs.join('\n\n')}\n${url}${after}\n`;
  const html =
    `<p>${t('mail.hello', { username: escapeHtml(account.username) })}</p>` +
    paragraphs.map((line) => `<p>${escapeHtml(line)}</p>`).join('') +
    `<p><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>` +
    (closing ? `<p>${escapeHtml(closing)}</p>` : '');
  return { to: account.to, subject, text, html };
}

/** The link that confirms a "Delete my account" request (works for 24 hours). */
export function buildDeletionConfirmMail(account: Account, url: string): Mail {
  const t = translator(account.language);
  return compose(account, t('accountDeletion.confirmSubject'), [t('accountDeletion.confirmText')], url, t('accountDeletion.confirmNotYou'));
}

/** The deletion is scheduled: when the account is erased, and the undo link that works until then. */
export function buildDeletionScheduledMail(account: Account, url: string, eraseAt: Date, byAdmin: boolean): Mail {
  const t = translator(account.language);
  const when = nairobiTime(eraseAt, account.language, true);
  const paragraphs = [t('accountDeletion.scheduledText', { when }), ...(byAdmin ? [t('accountDeletion.scheduledByAdmin')] : []), t('accountDeletion.undoText')];
  return compose(account, t('accountDeletion.scheduledSubject', { when }), paragraphs, url);
}
