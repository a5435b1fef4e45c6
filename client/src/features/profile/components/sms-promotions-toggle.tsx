/*
 * PROFILE › "Your data" › promotional SMS (docs/decisions/sms.md, "Consent"): the opt-in the sign-up checkbox set,
 * changed here. Saved as soon as it is ticked or unticked; tickets, codes and reminders do not depend on it.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useT } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { getSmsPromotions, setSmsPromotions } from '../api/profile-api';

export function SmsPromotionsToggle({ userId }: { userId: string }) {
  const t = useT();
  const queryClient = useQueryClient();
  const queryKey = ['sms-promotions', userId];
  const choice = useQuery({ queryKey, queryFn: ({ signal }) => getSmsPromotions(userId, signal) });
  const [saving, setSaving] = useState(false);

  const change = async (next: boolean) => {
    setSaving(true);
    try {
      queryClient.setQueryData(queryKey, await setSmsPromotions(userId, next));
      notify.success(t('profile.smsPromotionsSaved'));
    } catch {
      notify.error(t('profile.smsPromotionsFailed'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="sms-promotions">
      <label className="checkbox">
        <input
          type="checkbox"
          name="smsPromotions"
          checked={choice.data ?? false}
          disabled={choice.data === undefined || saving}
          aria-describedby="sms-promotions-hint"
          onChange={(event) => void change(event.target.checked)}
        />{' '}
        {t('profile.smsPromotions')}
      </label>
      <p id="sms-promotions-hint" className="muted">
        {t('profile.smsPromotionsHint')}
      </p>
    </div>
  );
}
