/*
 * A whole number of tickets between 1 and `max`: whatever is typed is clamped, so the value handed on is
 * always one a purchase or a waitlist place accepts.
 */
import { useId } from 'react';

export interface QuantityFieldProps {
  label: string;
  value: number;
  max: number;
  onChange: (quantity: number) => void;
  disabled?: boolean;
  /** Class of the field's wrapper, beside `field`. */
  className?: string;
}

export function QuantityField({ label, value, max, onChange, disabled, className }: QuantityFieldProps) {
  const id = useId();
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
        min={1}
        max={max}
        step={1}
        value={value}
        disabled={disabled}
        onChange={(change) => {
          const next = Math.floor(Number(change.target.value));
          onChange(Number.isFinite(next) ? Math.min(max, Math.max(1, next)) : 1);
        }}
      />
    </div>
  );
}
