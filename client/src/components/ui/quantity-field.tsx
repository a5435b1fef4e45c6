/*
 * A whole number of tickets between `min` (1 unless given) and `max`: whatever is typed is clamped, so the value handed on is
 * always one a purchase or a waitlist place accepts.
 */
import { useId } from 'react';

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
        min={min}
        max={max}
        step={1}
        value={value}
        disabled={disabled}
        onChange={(change) => {
          const next = Math.floor(Number(change.target.value));
          onChange(Number.isFinite(next) ? Math.min(max, Math.max(min, next)) : min);
        }}
      />
    </div>
  );
}
