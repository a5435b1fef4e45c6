/*
 * A buyer's answers to an order's checkout questions on /profile's tickets (docs/decisions/checkout-questions.md):
 * shown under the order's first ticket, changeable until the event starts (the server refuses later with 409).
 * Nothing shows for an order whose event asks nothing. A guest buyer edits theirs on the page their SMS link
 * opens (`GuestAnswersEditor`, the link's token the key), under the same server rules.
 */
import type { AnswerInput } from '@tukio/shared/checkout-questions';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { getErrorMessage } from '../../../lib/errors';
import { useT } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { getGuestOrderAnswers, getOrderAnswers, saveGuestOrderAnswers, saveOrderAnswers, type OrderAnswers } from '../api/checkout-questions-api';
import { answerKey, valuesOf } from '../lib/checkout-answers';
import { CheckoutQuestionsForm } from './checkout-questions-step';

export function AnswersEditor({ orderId }: { orderId: string }) {
  return <Answers queryKey={['order-answers', orderId]} load={(signal) => getOrderAnswers(orderId, signal)} store={(given) => saveOrderAnswers(orderId, given)} />;
}

/** The same editor on a guest's ticket page (/t/:token). */
export function GuestAnswersEditor({ token }: { token: string }) {
  return <Answers queryKey={['guest-order-answers', token]} load={(signal) => getGuestOrderAnswers(token, signal)} store={(given) => saveGuestOrderAnswers(token, given)} />;
}

interface AnswersSource {
  queryKey: string[];
  load: (signal: AbortSignal) => Promise<OrderAnswers>;
  store: (given: AnswerInput[]) => Promise<OrderAnswers>;
}

function Answers({ queryKey: key, load, store }: AnswersSource) {
  const t = useT();
  const queryClient = useQueryClient();
  const answers = useQuery({ queryKey: key, queryFn: ({ signal }) => load(signal), staleTime: 5 * 60_000, retry: false });
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
      queryClient.setQueryData(key, await store(given));
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
