import { useT } from '../../../lib/i18n';

/** The admin lists' status chips (refunds, payouts): one radio group, `''` for "all". */
export function StatusFilter<Value extends string>(props: {
  /** Names the group for screen readers (visually hidden). */
  legend: string;
  name: string;
  options: ReadonlyArray<{ value: Value; label: string }>;
  value: Value;
  onChange: (value: Value) => void;
}) {
  const t = useT();
  return (
    <fieldset className="refunds__filter">
      <legend className="visually-hidden">{props.legend}</legend>
      {props.options.map((option) => (
        <label key={option.value || 'all'} className="refunds__chip">
          <input type="radio" name={props.name} value={option.value} checked={props.value === option.value} onChange={() => props.onChange(option.value)} />
          <span>{t(option.label)}</span>
        </label>
      ))}
    </fieldset>
  );
}
