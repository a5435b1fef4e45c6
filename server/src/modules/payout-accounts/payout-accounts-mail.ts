import type { PayoutDestination } from '@tukio/shared/internal-payouts';
import { maskKenyanPhone } from '@tukio/shared/phone';
import { escapeHtml } from '../../lib/html.js';
import { nairobiTime, translator, type Language, type Translate } from '../../lib/i18n.js';
import type { Mail } from '../../lib/mailer.js';

/** A destination in words ("M-Pesa 0712 ••• 678", "Paybill 247247, account 1234"); phones masked unless told otherwise. */
export function describeDestination(destination: PayoutDestination, t: Translate, phone: (msisdn: string) => string = maskKenyanPhone): string {
  switch (destination.method) {
    case 'mpesa':
      return t('payoutAccounts.destinationMpesa', { phone: phone(destination.phone) });
    case 'paybill':
      return t('payoutAccounts.destinationPaybill', { shortcode: destination.shortcode, account: destination.accountReference });
    case 'till':
      return t('payoutAccounts.destinationTill', { shortcode: destination.shortcode });
  }
}

/** The email that tells an organiser their payout destination changed, and that payouts wait until `heldUntil`. */
export function buildDestinationChangedMail(input: {
  email: string;
  username: string;
  language: Language;
  previous: PayoutDestination;
  destination: PayoutDestination;
  heldUntil: Date;
  publicUrl: string;
}): Mail {
  const t = translator(input.language);
  const destination = describeDestination(input.destination, t);
  const url = `${input.publicUrl}/payouts`;
  const lines = [
    t('payoutAccounts.changedText', { previous: describeDestination(input.previous, t), destination }),
    t('payoutAccounts.changedHold', { until: nairobiTime(input.heldUntil, input.language) }),
    t('payoutAccounts.changedNotYou'),
  ];
  const text = `${t('mail.hello', { username: input.username })}\n\n${lines.join('\n\n')}\n\n${t('payoutAccounts.pageLink')}: ${url}\n`;
  const html =
    `<p>${t('mail.hello', { username: escapeHtml(input.username) })}</p>` +
    lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('') +
    `<p><a href="${escapeHtml(url)}">${escapeHtml(t('payoutAccounts.pageLink'))}</a></p>`;
  return { to: input.email, subject: t('payoutAccounts.changedSubject', { destination }).slice(0, 200), text, html };
}
