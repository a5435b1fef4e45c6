/*
 * Who pays Tukio's service fee on a paid event (plan and edit forms, docs/decisions/fees.md): it comes out of
 * the ticket price (the default: buyers pay the price shown), or buyers pay it on top of the price.
 */
import { useId } from 'react';
import { useT } from '../../../lib/i18n';
import type { FeeMode } from '../../../types/api';

const choices = [
  { mode: 'absorbed', label: 'events.feeModeAbsorbed' },
  { mode: 'on_top', label: 'events.feeModeOnTop' },
] as const;

export function FeeModeField({ value, onChange, disabled }: { value: FeeMode; onChange: (mode: FeeMode) => void; disabled?: boolean }) {
  const t = useT();
  const name = useId();
  return (
    <fieldset className="event-form__fee-mode">
      <legend>{t('events.feeMode')}</legend>
      <div className="event-form__choices" role="radiogroup" aria-label={t('events.feeMode')}>
        {choices.map((choice) => (
          <label key={choice.mode} className="checkbox">
            <input type="radio" name={`${name}-fee-mode`} value={choice.mode} checked={value === choice.mode} disabled={disabled} onChange={() => onChange(choice.mode)} />
            <span>{t(choice.label)}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
