import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form-field';
import { FormMessage } from '../../../components/ui/form-message';
import { getErrorCode, serverErrorMessage } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { useT } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { confirmPayoutDestination, payoutAccountKey, type PayoutAccount } from '../api/payout-account-api';
import { normaliseCode } from '../lib/destination-form';
import { DestinationText } from './destination-text';

/** The second step: the 6-digit code the SMS brought makes the waiting destination active. */
export function CodeEntry({ pending, onStartAgain }: { pending: NonNullable<PayoutAccount['pending']>; onStartAgain: () => void }) {
  const t = useT();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [invalid, setInvalid] = useState(false);
  const confirm = useMutation({
    mutationFn: confirmPayoutDestination,
    onSuccess: (account) => {
      queryClient.setQueryData(payoutAccountKey, account);
      notify.success(t(account.heldUntil ? 'payouts.changedHeld' : 'payouts.confirmed'));
    },
    onError: (error) => {
      // A request that can no longer be confirmed (locked, expired, gone) shows the form again after a reload.
      const code = getErrorCode(error);
      if (code === 'payout_code_attempts_used' || code === 'payout_code_expired' || code === 'payout_no_pending') void queryClient.invalidateQueries({ queryKey: payoutAccountKey });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const digits = normaliseCode(code);
    setInvalid(!digits);
    if (digits) confirm.mutate(digits);
  };

  return (
    <form className="payout-form" onSubmit={submit} noValidate aria-labelledby="payout-code-title">
      <h3 id="payout-code-title">{t('payouts.codeTitle')}</h3>
      <p>
        {t('payouts.codeSent', { phone: pending.codeSentTo, time: formatDateTime(pending.expiresAt) })}{' '}
        <span className="muted">
          (<DestinationText destination={pending.destination} />)
        </span>
      </p>
      <TextField
        label={t('payouts.codeLabel')}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={9}
        value={code}
        onChange={(event) => {
          setCode(event.target.value);
          setInvalid(false);
        }}
        error={invalid ? t('payouts.codeInvalid') : null}
      />
      {confirm.error ? <FormMessage tone="error">{serverErrorMessage(confirm.error, 'payouts.confirmFailed')}</FormMessage> : null}
      <div className="payout-form__actions">
        <Button type="submit" loading={confirm.isPending} loadingText={t('payouts.confirming')}>
          {t('payouts.confirm')}
        </Button>
        <Button variant="ghost" onClick={onStartAgain}>
          {t('payouts.startAgain')}
        </Button>
      </div>
    </form>
  );
}
