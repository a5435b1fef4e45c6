/*
 * "Promo code" with Apply in the ticket box (signed-in box and guest form): the server prices the code
 * (POST /quote); its refusal shows here, under the field, and the code typed stays for correcting.
 */
import { useId } from 'react';
import { Button } from '../../../components/ui/button';
import type { TicketOrderState } from '../hooks/use-ticket-order';
import '../ticket-order.css';
import { RichText, useT } from '../../../lib/i18n';

export type PromoCodeFieldProps = Pick<TicketOrderState, 'codeText' | 'setCodeText' | 'appliedCode' | 'applyCode' | 'removeCode' | 'quoting' | 'codeError'> & {
  disabled?: boolean;
};

export function PromoCodeField({ codeText, setCodeText, appliedCode, applyCode, removeCode, quoting, codeError, disabled }: PromoCodeFieldProps) {
  const t = useT();
  const id = useId();
  // Not a form of its own (the guest form holds it): Enter in the field applies the code, and only that.
  return (
    <div className={`field promo-code${codeError ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {t('tickets.promoCode')} <span className="muted">{t('tickets.optional')}</span>
      </label>
      <div className="promo-code__row">
        <input
          id={id}
          className="field__control promo-code__input"
          name="promoCode"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={40}
          value={codeText}
          disabled={disabled}
          aria-invalid={codeError ? true : undefined}
          aria-describedby={codeError ? `${id}-error` : appliedCode ? `${id}-applied` : undefined}
          onChange={(change) => setCodeText(change.target.value)}
          onKeyDown={(key) => {
            if (key.key !== 'Enter') return;
            key.preventDefault();
            applyCode();
          }}
        />
        <Button variant="secondary" onClick={applyCode} loading={quoting} loadingText={t('tickets.applying')} disabled={disabled}>
          {t('tickets.apply')}
        </Button>
      </div>
      {codeError ? (
        <p className="field__error" id={`${id}-error`} role="alert">
          {codeError}
        </p>
      ) : appliedCode ? (
        <p className="promo-code__applied" id={`${id}-applied`}>
          <span>
            <RichText id="tickets.codeApplied" parts={{ code: <strong>{appliedCode}</strong> }} />
          </span>{' '}
          <Button variant="ghost" className="btn--sm" onClick={removeCode}>
            {t('tickets.removeCode')}
          </Button>
        </p>
      ) : null}
    </div>
  );
}
