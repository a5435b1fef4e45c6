/*
 * The organiser's checkout questions (docs/decisions/checkout-questions.md): add, edit, move up or down and delete
 * (after confirmation) what buyers are asked in the payment dialog. Loaded when the "Checkout questions" panel opens.
 */
import { QUESTION_KINDS, QUESTION_LIMITS, type CheckoutQuestion, type QuestionKind, type QuestionScope } from '@tukio/shared/checkout-questions';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextAreaField, TextField } from '../../../components/ui/form-field';
import { FormMessage } from '../../../components/ui/form-message';
import { getErrorMessage } from '../../../lib/errors';
import { useT } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { useConfirmedAction } from '../../../hooks/use-confirmed-action';
import { createQuestion, deleteQuestion, listQuestions, reorderQuestions, updateQuestion, type QuestionDraft } from '../api/checkout-questions-api';
import { getTicketTypes } from '../../../lib/ticket-types-api';

const KIND_TEXT: Record<QuestionKind, string> = {
  text: 'tickets.cqKindText',
  choice: 'tickets.cqKindChoice',
  yes_no: 'tickets.cqKindYesNo',
  phone: 'tickets.cqKindPhone',
  email: 'tickets.cqKindEmail',
};

interface DraftValues {
  label: string;
  kind: QuestionKind;
  /** One option a line. */
  options: string;
  required: boolean;
  per: QuestionScope;
  ticketTypeId: string;
}

const emptyDraft: DraftValues = { label: '', kind: 'text', options: '', required: false, per: 'order', ticketTypeId: '' };
const draftOf = (question: CheckoutQuestion): DraftValues => ({ ...question, options: question.options.join('\n'), ticketTypeId: question.ticketTypeId ?? '' });
const optionsOf = (text: string) => [...new Set(text.split('\n').map((line) => line.trim()).filter(Boolean))];

export default function CheckoutQuestionsManager({ eventId }: { eventId: string }) {
  const t = useT();
  const queryClient = useQueryClient();
  const key = ['checkout-questions', eventId];
  const questions = useQuery({ queryKey: key, queryFn: ({ signal }) => listQuestions(eventId, signal) });
  const types = useQuery({ queryKey: ['ticket-types', eventId, 'manage'], queryFn: ({ signal }) => getTicketTypes(eventId, signal) });
  const typeList = types.data?.ticketTypes ?? [];
  const [editing, setEditing] = useState<string | null>(null);
  const [values, setValues] = useState<DraftValues>(emptyDraft);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [moving, setMoving] = useState(false);
  const list = questions.data ?? [];

  const change = <K extends keyof DraftValues>(field: K, value: DraftValues[K]) => setValues((current) => ({ ...current, [field]: value }));

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    const options = optionsOf(values.options);
    if (values.label.trim() === '') return setProblem(t('tickets.cqLabelNeeded'));
    if (values.kind === 'choice' && options.length < 2) return setProblem(t('tickets.cqOptionsNeeded'));
    setProblem(null);
    setSaving(true);
    const draft: QuestionDraft = { label: values.label.trim(), kind: values.kind, options: values.kind === 'choice' ? options : [], required: values.required, per: values.per, ticketTypeId: values.ticketTypeId || null };
    try {
      if (editing) await updateQuestion(eventId, editing, draft);
      else await createQuestion(eventId, draft);
      notify.success(editing ? t('tickets.cqSaved') : t('tickets.cqAdded'));
      setEditing(null);
      setValues(emptyDraft);
      await queryClient.invalidateQueries({ queryKey: key });
    } catch (error) {
      setProblem(getErrorMessage(error, t('tickets.cqSaveFailed')));
    } finally {
      setSaving(false);
    }
  };

  const move = async (index: number, by: -1 | 1) => {
    const ids = list.map((question) => question._id);
    const [moved] = ids.splice(index, 1);
    ids.splice(index + by, 0, moved!);
    setMoving(true);
    try {
      queryClient.setQueryData(key, await reorderQuestions(eventId, ids));
    } catch (error) {
      notify.error(getErrorMessage(error, t('tickets.cqSaveFailed')));
    } finally {
      setMoving(false);
    }
  };

  const removal = useConfirmedAction(async (question: CheckoutQuestion) => {
    await deleteQuestion(eventId, question._id);
    if (editing === question._id) {
      setEditing(null);
      setValues(emptyDraft);
    }
    notify.success(t('tickets.cqDeleted'));
    void queryClient.invalidateQueries({ queryKey: key });
  }, t('tickets.cqDeleteFailed'));

  const typeName = (id: string | null) => (id ? (typeList.find((type) => type._id === id)?.name ?? '') : '');

  return (
    <div className="checkout-questions-manager">
      <p className="muted">{t('tickets.cqIntro')}</p>
      {questions.isPending ? (
        <p className="muted" role="status">
          {t('tickets.cqLoading')}
        </p>
      ) : questions.isError ? (
        <FormMessage tone="error">{t('tickets.cqLoadFailed')}</FormMessage>
      ) : list.length === 0 ? (
        <p className="empty-state">{t('tickets.cqNone')}</p>
      ) : (
        <ol className="checkout-questions-manager__list">
          {list.map((question, index) => (
            <li key={question._id} className="checkout-questions-manager__item">
              <div>
                <strong>{question.label}</strong>
                <span className="muted">
                  {' '}
                  · {t(KIND_TEXT[question.kind])} · {question.required ? t('tickets.cqRequired') : t('tickets.cqOptional')} · {question.per === 'attendee' ? t('tickets.cqPerAttendee') : t('tickets.cqPerOrder')}
                  {question.ticketTypeId ? ` · ${typeName(question.ticketTypeId)}` : ''}
                </span>
                {question.kind === 'choice' ? <span className="muted"> ({question.options.join(', ')})</span> : null}
              </div>
              <div className="button-row">
                <Button variant="ghost" className="btn--sm" disabled={index === 0 || moving} onClick={() => void move(index, -1)} aria-label={t('tickets.cqMoveUp', { label: question.label })}>
                  ↑
                </Button>
                <Button variant="ghost" className="btn--sm" disabled={index === list.length - 1 || moving} onClick={() => void move(index, 1)} aria-label={t('tickets.cqMoveDown', { label: question.label })}>
                  ↓
                </Button>
                <Button
                  variant="secondary"
                  className="btn--sm"
                  onClick={() => {
                    setEditing(question._id);
                    setValues(draftOf(question));
                    setProblem(null);
                  }}
                  aria-label={t('tickets.cqEditNamed', { label: question.label })}
                >
                  {t('tickets.cqEdit')}
                </Button>
                <Button variant="ghost" className="btn--sm" onClick={() => removal.ask(question)} aria-label={t('tickets.cqDeleteNamed', { label: question.label })}>
                  {t('tickets.cqDelete')}
                </Button>
              </div>
            </li>
          ))}
        </ol>
      )}

      <form className="form checkout-questions-manager__form" onSubmit={(event) => void save(event)} noValidate>
        <h4>{editing ? t('tickets.cqEditTitle') : t('tickets.cqAddTitle')}</h4>
        <TextField label={t('tickets.cqLabel')} value={values.label} maxLength={QUESTION_LIMITS.label} onChange={(event) => change('label', event.target.value)} />
        <div className="field">
          <label className="field__label" htmlFor={`cq-kind-${eventId}`}>
            {t('tickets.cqKind')}
          </label>
          <select id={`cq-kind-${eventId}`} className="field__control" value={values.kind} onChange={(event) => change('kind', event.target.value as QuestionKind)}>
            {QUESTION_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {t(KIND_TEXT[kind])}
              </option>
            ))}
          </select>
        </div>
        {values.kind === 'choice' ? <TextAreaField label={t('tickets.cqOptions')} hint={t('tickets.cqOptionsHint')} value={values.options} rows={4} onChange={(event) => change('options', event.target.value)} /> : null}
        <div className="field">
          <label className="field__label" htmlFor={`cq-per-${eventId}`}>
            {t('tickets.cqAsked')}
          </label>
          <select id={`cq-per-${eventId}`} className="field__control" value={values.per} onChange={(event) => change('per', event.target.value as QuestionScope)}>
            <option value="order">{t('tickets.cqPerOrderLong')}</option>
            <option value="attendee">{t('tickets.cqPerAttendeeLong')}</option>
          </select>
        </div>
        {typeList.length > 1 ? (
          <div className="field">
            <label className="field__label" htmlFor={`cq-type-${eventId}`}>
              {t('tickets.cqTicketType')}
            </label>
            <select id={`cq-type-${eventId}`} className="field__control" value={values.ticketTypeId} onChange={(event) => change('ticketTypeId', event.target.value)}>
              <option value="">{t('tickets.cqEveryType')}</option>
              {typeList.map((type) => (
                <option key={type._id} value={type._id}>
                  {type.name}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <label className="checkbox">
          <input type="checkbox" checked={values.required} onChange={(event) => change('required', event.target.checked)} />
          <span>{t('tickets.cqRequiredLong')}</span>
        </label>
        {problem ? <FormMessage tone="error">{problem}</FormMessage> : null}
        <div className="button-row">
          {editing ? (
            <Button
              variant="ghost"
              onClick={() => {
                setEditing(null);
                setValues(emptyDraft);
                setProblem(null);
              }}
            >
              {t('tickets.cancel')}
            </Button>
          ) : null}
          <Button type="submit" variant="secondary" loading={saving} loadingText={t('tickets.savingAnswers')}>
            {editing ? t('tickets.cqSave') : t('tickets.cqAdd')}
          </Button>
        </div>
      </form>

      <ConfirmDialog
        {...removal.dialog}
        title={t('tickets.cqDeleteTitle', { label: removal.item?.label ?? '' })}
        description={t('tickets.cqDeleteDescription')}
        confirmLabel={t('tickets.cqDelete')}
        busyLabel={t('tickets.removing')}
        tone="danger"
      />
    </div>
  );
}
