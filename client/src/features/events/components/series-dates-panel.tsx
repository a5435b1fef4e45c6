/*
 * "Dates" in the event editor (docs/decisions/event-series.md): an organiser turns an event into a series by
 * adding dates, each with its own seats, and may move a date or change its seats (its holders are mailed the new
 * time). A date nobody bought is removed; one with sold tickets is cancelled after a confirmation, which refunds
 * only that date's buyers.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextField } from '../../../components/ui/form-field';
import { getErrorMessage } from '../../../lib/errors';
import { formatCount, formatSeriesDate } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { useT } from '../../../lib/i18n';
import { addEventDate, listEventDates, removeEventDate, updateEventDate, type SeriesDate } from '../api/event-dates-api';

/**
 * A date's time and seats: adding one (`date` left out; emptied after it was added) or editing one in place (only
 * what changed is sent, so an unmoved date mails nobody). The server's refusal (a time in the past, seats below
 * what is sold and held) shows under the fields, and nothing changes.
 */
function SeriesDateForm({ eventId, date, onDone }: { eventId: string; date?: SeriesDate; onDone: (saved: boolean) => void }) {
  const t = useT();
  const initialStart = date?.startsAt.slice(0, 16) ?? '';
  const initialSeats = date?.capacity == null ? '' : String(date.capacity);
  const [startsAt, setStartsAt] = useState(initialStart);
  const [capacity, setCapacity] = useState(initialSeats);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!startsAt) return setError(t('events.seriesDateRequired'));
    setSaving(true);
    setError(null);
    const seats = capacity.trim() === '' ? null : Number(capacity);
    try {
      if (date) await updateEventDate(eventId, date._id, { ...(startsAt !== initialStart ? { startsAt } : {}), capacity: seats });
      else await addEventDate(eventId, { startsAt, capacity: seats });
      notify.success(t(date ? 'events.seriesDateSaved' : 'events.seriesDateAdded'));
      setStartsAt(initialStart);
      setCapacity(initialSeats);
      onDone(true);
    } catch (failure) {
      setError(getErrorMessage(failure, t('events.seriesDateFailed')));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="series-dates__form" onSubmit={(event) => void save(event)} noValidate>
      <TextField label={t(date ? 'events.seriesDateTime' : 'events.seriesNewDate')} type="datetime-local" value={startsAt} onChange={(change) => setStartsAt(change.target.value)} />
      <TextField label={t('events.seriesCapacity')} type="number" inputMode="numeric" min={1} value={capacity} onChange={(change) => setCapacity(change.target.value)} hint={t('events.seriesCapacityHint')} />
      {date && date.sold > 0 ? <p className="muted">{t('events.seriesMoveNotice')}</p> : null}
      {error ? (
        <p className="field__error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="button-row">
        <Button type="submit" className={date ? 'btn--sm' : undefined} loading={saving} loadingText={t(date ? 'events.seriesSaving' : 'events.seriesAdding')}>
          {t(date ? 'events.seriesSaveDate' : 'events.seriesAddDate')}
        </Button>
        {date ? (
          <Button variant="secondary" className="btn--sm" disabled={saving} onClick={() => onDone(false)}>
            {t('events.seriesEditClose')}
          </Button>
        ) : null}
      </div>
    </form>
  );
}

export function SeriesDatesPanel({ eventId }: { eventId: string }) {
  const t = useT();
  const titleId = useId();
  const queryClient = useQueryClient();
  const dates = useQuery({ queryKey: ['event-dates', eventId], queryFn: ({ signal }) => listEventDates(eventId, signal) });
  const [editing, setEditing] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState<SeriesDate | null>(null);
  const [busy, setBusy] = useState(false);
  const [cancelError, setCancelError] = useState<string | null>(null);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['event-dates', eventId] });
    void queryClient.invalidateQueries({ queryKey: ['event', eventId] });
  };

  const remove = async (date: SeriesDate, confirm: boolean) => {
    setBusy(true);
    setCancelError(null);
    try {
      const answer = await removeEventDate(eventId, date._id, confirm);
      notify.success(answer.cancelled ? t('events.seriesDateCancelled', { count: answer.refunds }) : t('events.seriesDateRemoved'));
      setCancelling(null);
      refresh();
    } catch (error) {
      const message = getErrorMessage(error, t('events.seriesDateFailed'));
      if (confirm) setCancelError(message);
      else notify.error(message);
    } finally {
      setBusy(false);
    }
  };

  const list = dates.data ?? [];
  return (
    <section className="card series-dates" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('events.seriesDates')}</h2>
      <p className="muted">{t('events.seriesDatesHelp')}</p>
      {dates.isLoading ? (
        <p role="status">{t('events.seriesDatesLoading')}</p>
      ) : dates.isError ? (
        <p role="alert">{getErrorMessage(dates.error, t('events.seriesDateFailed'))}</p>
      ) : list.length > 0 ? (
        <ul className="series-dates__list" data-testid="series-date-list">
          {list.map((date) =>
            editing === date._id ? (
              <li key={date._id} className="series-dates__item">
                <SeriesDateForm
                  eventId={eventId}
                  date={date}
                  onDone={(saved) => {
                    setEditing(null);
                    if (saved) refresh();
                  }}
                />
              </li>
            ) : (
              <li key={date._id} className="series-dates__item">
                <span>
                  <strong>{formatSeriesDate(date.startsAt)}</strong>{' '}
                  <span className="muted">
                    {date.capacity === null ? t('events.seriesSold', { sold: formatCount(date.sold) }) : t('events.seriesSoldOf', { sold: formatCount(date.sold), capacity: formatCount(date.capacity) })}
                  </span>
                </span>
                {date.status === 'cancelled' ? (
                  <span className="badge badge--cancelled">{t('common.cancelled')}</span>
                ) : (
                  <span className="button-row">
                    <Button variant="secondary" className="btn--sm" disabled={busy} aria-label={t('events.seriesEditDateOf', { date: formatSeriesDate(date.startsAt) })} onClick={() => setEditing(date._id)}>
                      {t('events.seriesEditDate')}
                    </Button>
                    <Button variant="secondary" className="btn--sm" disabled={busy} onClick={() => (date.sold > 0 ? setCancelling(date) : void remove(date, false))}>
                      {date.sold > 0 ? t('events.seriesCancelDate') : t('events.seriesRemoveDate')}
                    </Button>
                  </span>
                )}
              </li>
            ),
          )}
        </ul>
      ) : null}
      <SeriesDateForm eventId={eventId} onDone={refresh} />
      <ConfirmDialog
        open={cancelling !== null}
        title={t('events.seriesCancelTitle')}
        description={cancelling ? t('events.seriesCancelWarning', { date: formatSeriesDate(cancelling.startsAt), count: cancelling.sold }) : ''}
        confirmLabel={t('events.seriesCancelDate')}
        busyLabel={t('events.seriesCancelling')}
        dismissLabel={t('events.seriesKeepDate')}
        busy={busy}
        error={cancelError}
        onConfirm={() => cancelling && void remove(cancelling, true)}
        onClose={() => {
          setCancelling(null);
          setCancelError(null);
        }}
      />
    </section>
  );
}
