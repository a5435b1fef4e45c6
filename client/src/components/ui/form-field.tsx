import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type TextareaHTMLAttributes } from 'react';
import { useT } from '../../lib/i18n';

interface FieldChrome {
  label: ReactNode;
  /** Validation message shown under the control (and linked via aria-describedby). */
  error?: string | null | undefined;
  hint?: ReactNode;
}

/** What the field gives its control: the id its label points at, and the links to hint and error. */
interface ControlWiring {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

function describedBy(...ids: Array<string | false | undefined>): string | undefined {
  const value = ids.filter(Boolean).join(' ');
  return value || undefined;
}

/**
 * Label, control, hint and error: the one layout behind TextField and TextAreaField. `className`
 * goes on the wrapper; every other prop not of the field itself is handed to `render` for the control.
 */
function Field<Control extends object>(
  props: FieldChrome & { className?: string | undefined } & Control & {
      render: (control: Control, wiring: ControlWiring) => ReactNode;
    },
) {
  const { label, error, hint, className, render, ...control } = props;
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  return (
    <div className={`field${error ? ' field--invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {render(control as Control, {
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy(hint ? hintId : undefined, error ? errorId : undefined),
      })}
      {hint ? (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

export interface TextFieldProps extends FieldChrome, Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  ref?: Ref<HTMLInputElement>;
}

export function TextField({ ref, ...props }: TextFieldProps) {
  return (
    <Field {...props} render={(input, wiring) => <input {...input} ref={ref} {...wiring} className="field__control" />} />
  );
}

export interface TextAreaFieldProps
  extends FieldChrome, Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  ref?: Ref<HTMLTextAreaElement>;
}

export function TextAreaField({ ref, ...props }: TextAreaFieldProps) {
  return (
    <Field
      {...props}
      render={(textarea, wiring) => (
        <textarea {...textarea} ref={ref} {...wiring} className="field__control field__control--textarea" />
      )}
    />
  );
}

type PresetFieldProps = Omit<TextFieldProps, 'label'> & { label?: ReactNode };

/** A required e-mail address: label "Email", name "email" unless given. */
export function EmailField(props: PresetFieldProps) {
  const t = useT();
  return <TextField label={t('ui.email')} name="email" type="email" autoComplete="email" required {...props} />;
}
