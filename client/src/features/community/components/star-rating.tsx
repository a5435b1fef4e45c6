import { useId, useState } from 'react';
import { useT } from '../../../lib/i18n';

export const RATING_MAX = 5;
const STAR_POINTS =
  '12,1.6 14.82,8.72 22.46,9.2 16.57,14.08 18.47,21.5 12,17.4 5.53,21.5 7.43,14.08 1.54,9.2 9.18,8.72';

function StarIcon({ className }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <polygon points={STAR_POINTS} />
    </svg>
  );
}

/**
 * Rating picker: a native radio group (arrow keys move and select, Tab leaves the group) drawn as
 * five stars. Each radio covers its star, so pointer, touch and keyboard all reach the real input.
 */
export function StarRatingInput({
  value,
  onChange,
  legend,
  disabled = false,
}: {
  value: number;
  onChange: (value: number) => void;
  legend?: string;
  disabled?: boolean;
}) {
  const t = useT();
  const name = useId();
  const [hovered, setHovered] = useState<number | null>(null);
  const shown = hovered ?? value;
  return (
    <fieldset className="star-input" disabled={disabled} onMouseLeave={() => setHovered(null)}>
      <legend className="field__label">{legend ?? t('community.rating')}</legend>
      <div className="star-input__options">
        {Array.from({ length: RATING_MAX }, (_, index) => {
          const option = index + 1;
          return (
            <label
              key={option}
              className={`star-input__option${option <= shown ? ' is-filled' : ''}`}
              onMouseEnter={() => setHovered(option)}
            >
              <input
                className="star-input__radio"
                type="radio"
                name={name}
                value={option}
                checked={value === option}
                onChange={() => onChange(option)}
              />
              <StarIcon className="star-input__icon" />
              <span className="visually-hidden">{t('community.stars', { count: option })}</span>
            </label>
          );
        })}
        <span className="star-input__value" aria-hidden="true">
          {value} / {RATING_MAX}
        </span>
      </div>
    </fieldset>
  );
}

/** Read-only stars; fractional values (averages) fill part of a star. */
export function StarRatingDisplay({ value, size = 'md' }: { value: number; size?: 'sm' | 'md' | 'lg' }) {
  const t = useT();
  const clamped = Math.max(0, Math.min(RATING_MAX, value));
  const label = t('community.ratedOutOf', { value: Number.isInteger(clamped) ? String(clamped) : clamped.toFixed(1), max: String(RATING_MAX) });
  const stars = Array.from({ length: RATING_MAX }, (_, index) => <StarIcon key={index} className="stars__icon" />);
  return (
    <span className={`stars stars--${size}`} role="img" aria-label={label}>
      <span className="stars__track">{stars}</span>
      <span className="stars__fill" style={{ width: `${(clamped / RATING_MAX) * 100}%` }}>
        {stars}
      </span>
    </span>
  );
}
