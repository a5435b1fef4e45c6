/*
 * A whole number of tickets between `min` (1 unless given) and `max`: whatever is typed is clamped, so the value handed on is
 * always one a purchase or a waitlist place accepts. Asking for more than `max` says so (the number was lowered), rather
 * than changing it silently.
 */
import { useId, useState } from 'react';
import { useT } from '../../lib/i18n';

export interface QuantityFieldProps {
  label: string;
  value: number;
  max: number;
  /** 0 where choosing none is fine (one of several ticket types). */
  min?: number;
  onChange: (quantity: number) => void;
  disabled?: boolean;
  /** Class of the field's wrapper, beside `field`. */
  className?: string;
}

export function QuantityField({ label, value, max, min = 1, onChange, disabled, className }: QuantityFieldProps) {
  const t = useT();
  const id = useId();
  const hintId = useId();
  // What was asked for when it was more than `max` (cleared by the next change that fits).
  const [askedFor, setAskedFor] = useState<number | null>(null);
  const lowered = askedFor !== null && askedFor > max && value === max;
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="field__control"
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        step={1}
        value={value}
        disabled={disabled}
        aria-describedby={lowered ? hintId : undefined}
        onChange={(change) => {
          const next = Math.floor(Number(change.target.value));
          setAskedFor(Number.isFinite(next) && next > max ? next : null);
          onChange(Number.isFinite(next) ? Math.min(max, Math.max(min, next)) : min);
        }}
      />
      <p id={hintId} className="field__hint" aria-live="polite">
        {lowered ? t('ui.quantityLowered', { asked: askedFor, max }) : null}
      </p>
    </div>
  );
}
