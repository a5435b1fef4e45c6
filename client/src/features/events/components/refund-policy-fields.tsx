/*
 * The refund policy of an event (plan and edit forms, docs/product.md): what a ticket holder gets back when
 * cancelling their own tickets from their profile. No refunds (the default), a full refund, or a part of
 * the price, until some hours before the start. Free tickets can always be released before the start.
 */
import { useId } from 'react';
import { REFUND_PERCENT_MAX, REFUND_PERCENT_MIN, REFUND_UNTIL_HOURS_MAX } from '@tukio/shared/refund-policy';
import { describeRefundPolicyText } from '../lib/refund-policy-text';
import { TextField } from '../../../components/ui/form-field';
import { refundPolicyInput, validateRefundPolicy, type FormErrors, type RefundPolicyValues } from '../lib/event-form';
import { useT } from '../../../lib/i18n';

interface RefundPolicyFieldsProps {
  values: RefundPolicyValues;
  errors: FormErrors<RefundPolicyValues>;
  onChange: <K extends keyof RefundPolicyValues>(field: K, value: RefundPolicyValues[K]) => void;
  disabled?: boolean;
}

const choices = [
  { kind: 'none', label: 'events.refundChoiceNone' },
  { kind: 'full', label: 'events.refundChoiceFull' },
  { kind: 'partial', label: 'events.refundChoicePartial' },
] as const;

export function RefundPolicyFields({ values, errors, onChange, disabled }: RefundPolicyFieldsProps) {
  const t = useT();
  const name = useId();
  const valid = Object.values(validateRefundPolicy(values)).every((problem) => !problem);
  return (
    <fieldset className="event-form__refunds">
      <legend>{t('events.refundPolicy')}</legend>
      <p className="muted">{t('events.refundPolicyIntro')}</p>
      <div className="event-form__choices" role="radiogroup" aria-label={t('events.refundPolicy')}>
        {choices.map((choice) => (
          <label key={choice.kind} className="checkbox">
            <input
              type="radio"
              name={`${name}-refund-kind`}
              value={choice.kind}
              checked={values.refundKind === choice.kind}
              disabled={disabled}
              onChange={() => onChange('refundKind', choice.kind)}
            />
            <span>{t(choice.label)}</span>
          </label>
        ))}
      </div>
      {values.refundKind === 'partial' ? (
        <TextField
          label={t('events.refundPercentLabel')}
          name="refundPercent"
          type="number"
          inputMode="numeric"
          min={REFUND_PERCENT_MIN}
          max={REFUND_PERCENT_MAX}
          step={1}
          required
          value={values.refundPercent}
          error={errors.refundPercent}
          disabled={disabled}
          onChange={(event) => onChange('refundPercent', event.target.value)}
        />
      ) : null}
      {values.refundKind !== 'none' ? (
        <TextField
          label={t('events.refundHoursLabel')}
          name="refundUntilHours"
          type="number"
          inputMode="numeric"
          min={0}
          max={REFUND_UNTIL_HOURS_MAX}
          step={1}
          required
          hint={t('events.refundHoursHint', { max: REFUND_UNTIL_HOURS_MAX })}
          value={values.refundUntilHours}
          error={errors.refundUntilHours}
          disabled={disabled}
          onChange={(event) => onChange('refundUntilHours', event.target.value)}
        />
      ) : null}
      {valid ? <p className="event-form__policy-summary">{t('events.holdersWillSee', { policy: describeRefundPolicyText(refundPolicyInput(values)) })}</p> : null}
    </fieldset>
  );
}
