/*
 * A buyer's answers to an order's checkout questions on /profile's tickets (docs/decisions/checkout-questions.md):
 * shown under the order's first ticket, changeable until the event starts (the server refuses later with 409).
 * Nothing shows for an order whose event asks nothing.
 */
import type { AnswerInput } from '@tukio/shared/checkout-questions';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { getErrorMessage } from '../../../lib/errors';
import { useT } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { getOrderAnswers, saveOrderAnswers } from '../api/checkout-questions-api';
import { answerKey, valuesOf } from '../lib/checkout-answers';
import { CheckoutQuestionsForm } from './checkout-questions-step';

export function AnswersEditor({ orderId }: { orderId: string }) {
  const t = useT();
  const queryClient = useQueryClient();
  const key = ['order-answers', orderId];
  const answers = useQuery({ queryKey: key, queryFn: ({ signal }) => getOrderAnswers(orderId, signal), staleTime: 5 * 60_000, retry: false });
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const data = answers.data;
  // Each question as often as the server says it is asked of this order (`times`).
  const fields = useMemo(
    () => (data?.questions ?? []).flatMap((question) => Array.from({ length: question.times }, (_, attendee) => ({ key: answerKey(question._id, attendee), question, attendee, times: question.times }))),
    [data],
  );
  const initial = useMemo(() => valuesOf(data?.answers ?? []), [data]);
  if (!data || data.questions.length === 0) return null;
  const unanswered = data.answers.length === 0;

  const save = async (given: AnswerInput[]) => {
    setSaving(true);
    setError(null);
    try {
      queryClient.setQueryData(key, await saveOrderAnswers(orderId, given));
      notify.success(t('tickets.answersSaved'));
    } catch (failure) {
      setError(getErrorMessage(failure, t('tickets.cqSaveFailed')));
    } finally {
      setSaving(false);
    }
  };

  return (
    <details className="ticket-card__answers" open={unanswered && data.editable}>
      <summary>{t('tickets.yourAnswers')}</summary>
      {unanswered && data.editable ? <p className="muted">{t('tickets.answersNeeded')}</p> : null}
      {data.editable ? null : <p className="muted">{t('tickets.answersLocked')}</p>}
      <CheckoutQuestionsForm
        key={JSON.stringify(data.answers)}
        fields={fields}
        initial={initial}
        error={error}
        submitLabel={t('tickets.saveAnswers')}
        busy={saving}
        disabled={!data.editable}
        onSubmit={(given) => void save(given)}
      />
    </details>
  );
}
