/*
 * The payment dialog's questions step (docs/decisions/checkout-questions.md): the organiser's questions, a
 * per-attendee one once per ticket, checked as the server will check them before the phone number is asked.
 * Also the form /profile's ticket view uses to change the answers until the event starts.
 */
import type { AnswerInput, AnswerProblem } from '@tukio/shared/checkout-questions';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n';
import { answerFields, checkAnswers, valuesOf, type AnswerField } from '../lib/checkout-answers';
import type { PaymentState } from '../lib/payment-flow';

/** The dialog's own words (the tickets catalog is loaded with it; the server's refusals use the errors catalog's). */
const PROBLEM_TEXT: Record<AnswerProblem, string> = {
  required: 'tickets.answerRequired',
  not_one_of: 'tickets.answerNotAnOption',
  invalid_phone: 'tickets.answerInvalidPhone',
  invalid_email: 'tickets.answerInvalidEmail',
  invalid_yes_no: 'tickets.answerInvalidYesNo',
  too_long: 'tickets.answerTooLong',
};

export interface CheckoutQuestionsFormProps {
  /** The answers to give (lib/checkout-answers.ts `answerFields`). */
  fields: AnswerField[];
  /** What was typed before (a retry, or saved answers), keyed `questionId:attendee`. */
  initial?: Record<string, string> | undefined;
  /** The server's refusal, shown above the fields. */
  error?: string | null | undefined;
  submitLabel: string;
  busy?: boolean | undefined;
  disabled?: boolean | undefined;
  onSubmit: (answers: AnswerInput[]) => void;
  onCancel?: (() => void) | undefined;
  cancelLabel?: string | undefined;
}

export function CheckoutQuestionsForm(props: CheckoutQuestionsFormProps) {
  const t = useT();
  const { fields } = props;
  const [values, setValues] = useState<Record<string, string>>(() => props.initial ?? {});
  const [problems, setProblems] = useState<Record<string, AnswerProblem>>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkAnswers(fields, values);
    if ('problems' in checked) {
      setProblems(checked.problems);
      return;
    }
    setProblems({});
    props.onSubmit(checked.answers);
  };

  return (
    <form className="form checkout-questions" onSubmit={submit} noValidate>
      {props.error ? (
        <p className="form-message form-message--error" role="alert">
          {props.error}
        </p>
      ) : null}
      {fields.map((field) => (
        <AnswerControl
          key={field.key}
          field={field}
          value={values[field.key] ?? ''}
          disabled={props.disabled}
          error={problems[field.key] ? t(PROBLEM_TEXT[problems[field.key]!], { question: field.question.label }) : null}
          onChange={(value) => setValues((current) => ({ ...current, [field.key]: value }))}
        />
      ))}
      <div className="button-row payment-dialog__actions">
        {props.onCancel ? (
          <Button variant="secondary" onClick={props.onCancel}>
            {props.cancelLabel ?? t('tickets.cancel')}
          </Button>
        ) : null}
        {props.disabled ? null : (
          <Button type="submit" loading={props.busy} loadingText={t('tickets.savingAnswers')}>
            {props.submitLabel}
          </Button>
        )}
      </div>
    </form>
  );
}

function AnswerControl({ field, value, error, disabled, onChange }: { field: AnswerField; value: string; error: string | null; disabled?: boolean | undefined; onChange: (value: string) => void }) {
  const t = useT();
  const id = useId();
  const { question } = field;
  const label = [
    question.label,
    question.per === 'attendee' && field.times > 1 ? ` · ${t('tickets.questionTicket', { n: field.attendee + 1, count: field.times })}` : '',
    question.required ? '' : ` ${t('tickets.questionOptional')}`,
  ].join('');
  const wiring = { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? `${id}-error` : undefined, disabled, required: question.required } as const;
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {question.kind === 'choice' || question.kind === 'yes_no' ? (
        <select {...wiring} className="field__control" value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">{t('tickets.questionChoose')}</option>
          {question.kind === 'yes_no' ? (
            <>
              <option value="yes">{t('tickets.answerYes')}</option>
              <option value="no">{t('tickets.answerNo')}</option>
            </>
          ) : (
            question.options.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))
          )}
        </select>
      ) : (
        <input
          {...wiring}
          className="field__control"
          type={question.kind === 'email' ? 'email' : question.kind === 'phone' ? 'tel' : 'text'}
          inputMode={question.kind === 'phone' ? 'tel' : question.kind === 'email' ? 'email' : undefined}
          autoComplete={question.kind === 'email' ? 'email' : question.kind === 'phone' ? 'tel' : 'off'}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      {error ? (
        <p className="field__error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The dialog's step: the questions of this order, then on to the phone number. */
export function CheckoutQuestionsStep({ state, onAnswer, onCancel }: { state: PaymentState; onAnswer: (answers: AnswerInput[]) => void; onCancel: () => void }) {
  const t = useT();
  const fields = useMemo(() => answerFields(state.questions, state.order ?? { quantity: state.quantity }), [state.questions, state.order, state.quantity]);
  const initial = useMemo(() => valuesOf(state.answers ?? []), [state.answers]);
  return (
    <div className="payment-dialog__step">
      <p>{t('tickets.questionsIntro')}</p>
      <CheckoutQuestionsForm fields={fields} initial={initial} error={state.error?.message} submitLabel={t('tickets.continueToPhone')} onSubmit={onAnswer} onCancel={onCancel} />
    </div>
  );
}
