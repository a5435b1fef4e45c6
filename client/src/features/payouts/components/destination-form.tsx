import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form-field';
import { FormMessage } from '../../../components/ui/form-message';
import { getServerFieldError, serverErrorMessage } from '../../../lib/errors';
import { useT } from '../../../lib/i18n';
import { payoutAccountKey, requestPayoutDestination } from '../api/payout-account-api';
import { destinationRequest, emptyDestinationForm, PAYOUT_METHODS, type DestinationField, type DestinationFormValues } from '../lib/destination-form';

const methodLabels = {
  mpesa: { name: 'payouts.methodMpesa', hint: 'payouts.methodMpesaHint' },
  paybill: { name: 'payouts.methodPaybill', hint: 'payouts.methodPaybillHint' },
  till: { name: 'payouts.methodTill', hint: 'payouts.methodTillHint' },
} as const;

/** Add or change the destination: method, its fields, the account password. A code is sent on success. */
export function DestinationForm({ isChange, onCancel, onSent }: { isChange: boolean; onCancel?: (() => void) | undefined; onSent: () => void }) {
  const t = useT();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<DestinationFormValues>(emptyDestinationForm);
  const [errors, setErrors] = useState<Partial<Record<DestinationField, string>>>({});
  const send = useMutation({
    mutationFn: requestPayoutDestination,
    onSuccess: (account) => {
      queryClient.setQueryData(payoutAccountKey, account);
      onSent();
    },
  });

  const change = (field: keyof DestinationFormValues, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = destinationRequest(values);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    send.mutate(result.request);
  };

  const fieldError = (field: DestinationField) => (errors[field] ? t(errors[field]) : null);
  const serverField = getServerFieldError(send.error);
  const isPaybill = values.method === 'paybill';

  return (
    <form className="payout-form" onSubmit={submit} noValidate aria-labelledby="payout-form-title">
      <h3 id="payout-form-title">{t(isChange ? 'payouts.changeTitle' : 'payouts.addTitle')}</h3>
      <fieldset className="payout-form__methods">
        <legend>{t('payouts.methodLegend')}</legend>
        {PAYOUT_METHODS.map((method) => (
          <label key={method} className="payout-form__method">
            <input type="radio" name="payout-method" value={method} checked={values.method === method} onChange={() => change('method', method)} />
            <span>
              <strong>{t(methodLabels[method].name)}</strong>
              <small className="muted">{t(methodLabels[method].hint)}</small>
            </span>
          </label>
        ))}
      </fieldset>

      {values.method === 'mpesa' ? (
        <TextField
          label={t('payouts.phoneLabel')}
          hint={t('payouts.phoneHint')}
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          value={values.phone}
          onChange={(event) => change('phone', event.target.value)}
          error={fieldError('phone')}
        />
      ) : (
        <>
          <TextField
            label={t(isPaybill ? 'payouts.paybillLabel' : 'payouts.tillLabel')}
            inputMode="numeric"
            value={values.shortcode}
            onChange={(event) => change('shortcode', event.target.value)}
            error={fieldError('shortcode')}
          />
          {isPaybill ? (
            <TextField label={t('payouts.accountLabel')} value={values.accountReference} maxLength={13} onChange={(event) => change('accountReference', event.target.value)} error={fieldError('accountReference')} />
          ) : null}
          <TextField
            label={t('payouts.codePhoneLabel')}
            hint={t('payouts.codePhoneHint')}
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            value={values.codePhone}
            onChange={(event) => change('codePhone', event.target.value)}
            error={fieldError('codePhone')}
          />
        </>
      )}

      <TextField
        label={t('payouts.passwordLabel')}
        hint={t('payouts.passwordHint')}
        type="password"
        autoComplete="current-password"
        value={values.password}
        onChange={(event) => change('password', event.target.value)}
        error={fieldError('password')}
      />

      {send.error && !serverField ? <FormMessage tone="error">{serverErrorMessage(send.error, 'payouts.sendFailed')}</FormMessage> : null}
      {serverField ? <FormMessage tone="error">{serverField.msg}</FormMessage> : null}
      <div className="payout-form__actions">
        <Button type="submit" loading={send.isPending} loadingText={t('payouts.sending')}>
          {t('payouts.sendCode')}
        </Button>
        {onCancel ? (
          <Button variant="ghost" onClick={onCancel}>
            {t('payouts.cancel')}
          </Button>
        ) : null}
      </div>
    </form>
  );
}
