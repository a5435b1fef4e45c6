import type { RefundPolicy } from '@tukio/shared/refund-policy';
import { t } from '../../../lib/i18n';

/** The policy in a few words, in the reader's language, as the event page and the event forms show it. */
export function describeRefundPolicyText(policy: RefundPolicy): string {
  if (policy.kind === 'none') return t('events.refundNone');
  const values = { percent: policy.percent ?? 0, hours: policy.untilHours };
  if (policy.kind === 'full') return policy.untilHours > 0 ? t('events.refundFullUntilHours', values) : t('events.refundFullUntilStart');
  return policy.untilHours > 0 ? t('events.refundPartialUntilHours', values) : t('events.refundPartialUntilStart', values);
}
