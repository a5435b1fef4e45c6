/*
 * /edit-event/{id} form: PUT /api/events/:id, then back to the event page. A paid event's ticket types are
 * edited here too and, when changed, saved after the event with PUT /api/events/:id/ticket-types; a refusal
 * (at the row's field) keeps the form open, the event's own changes being saved already.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { notify } from '../../../lib/notify';
import { Button } from '../../../components/ui/button';
import { FormMessage } from '../../../components/ui/form-message';
import { paths } from '../../../config/paths';
import { getErrorMessage, getServerFieldError } from '../../../lib/errors';
import { getTicketTypes } from '../../../lib/ticket-types-api';
import { saveTicketTypes, updateEvent, type EventItem } from '../api/events-api';
import { listEventDates } from '../api/event-dates-api';
import type { PendingChange } from '../../../lib/event-review-api';
import { useGeocode } from '../hooks/use-geocode';
import {
  parseCapacity,
  refundPolicyInput,
  refundPolicyValues,
  validateEventFields,
  validateRefundPolicy,
  type EventFormValues,
  type FormErrors,
  type RefundPolicyValues,
} from '../lib/event-form';
import { joinEventDate, splitEventDate } from '../lib/event-time';
import { errorsAfterEdit, typeErrorKey, typeInputs, typeRowsOf, validateTypeRows, type TicketTypeErrors, type TicketTypeRow } from '../lib/ticket-type-rows';
import { EventFields } from './event-fields';
import type { FeeMode } from '../../../types/api';
import { FeeModeField } from './fee-mode-field';
import { RefundPolicyFields } from './refund-policy-fields';
import { TicketTypesFields } from './ticket-types-fields';
import '../forms.css';
import '../../../components/event-review/change-table.css';
import { useT } from '../../../lib/i18n';

function initialValues(event: EventItem): EventFormValues {
  const { date, time } = splitEventDate(event.date);
  return {
    title: event.title,
    description: event.description,
    date,
    time,
    location: event.location,
    capacity: typeof event.capacity === 'number' ? String(event.capacity) : '',
  };
}

/** The published values with the changes waiting for review laid over them, so saving again keeps what was proposed. */
function withProposal(values: EventFormValues, proposal: PendingChange | null | undefined): EventFormValues {
  if (proposal?.status !== 'pending') return values;
  const next = { ...values };
  for (const change of proposal.changes) {
    if (typeof change.to !== 'string') continue;
    if (change.field === 'title' || change.field === 'description' || change.field === 'location') next[change.field] = change.to;
    if (change.field === 'date') Object.assign(next, splitEventDate(change.to));
  }
  return next;
}

interface EditEventFormProps {
  event: EventItem;
  /** The organiser's edit of this published event waits for review (an admin's applies at once). */
  reviewed?: boolean;
  /** The changes already waiting, shown in the form as the values being edited. */
  proposal?: PendingChange | null;
  /** Called instead of leaving the page when the save left changes waiting for review. */
  onProposed?: (change: PendingChange) => void;
}

export function EditEventForm({ event, reviewed = false, proposal, onProposed }: EditEventFormProps) {
  const t = useT();
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState(() => withProposal(initialValues(event), proposal));
  const published = initialValues(event);
  // A buyer must agree to another date or place: saving one pauses sales until the review, so say so before.
  const pausesSales = reviewed && (values.date !== published.date || values.time !== published.time || values.location.trim() !== published.location);
  const [errors, setErrors] = useState<FormErrors<EventFormValues>>({});
  const [policy, setPolicy] = useState(() => refundPolicyValues(event.refundPolicy));
  const [policyErrors, setPolicyErrors] = useState<FormErrors<RefundPolicyValues>>({});
  const [feeMode, setFeeMode] = useState<FeeMode>(event.feeMode ?? 'absorbed');
  const [pending, setPending] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [focusToken, setFocusToken] = useState(0);
  // Not kept once the form is gone: the rows start from the saved types each time the form opens.
  const types = useQuery({ queryKey: ['ticket-types', event._id, 'edit'], queryFn: ({ signal }) => getTicketTypes(event._id, signal), enabled: event.isPaid, gcTime: 0 });
  // The Dates panel's own query: a date added there shows at once in each row's "Sold for".
  const seriesDates = useQuery({ queryKey: ['event-dates', event._id], queryFn: ({ signal }) => listEventDates(event._id, signal), enabled: event.isPaid });
  /** The rows as loaded (to tell whether they changed) and as edited; null until loaded. */
  const [typeRows, setTypeRows] = useState<{ saved: string; rows: TicketTypeRow[] } | null>(null);
  const [typeErrors, setTypeErrors] = useState<TicketTypeErrors>({});
  if (types.data && typeRows === null) {
    const rows = typeRowsOf(types.data.ticketTypes);
    setTypeRows({ saved: JSON.stringify(typeInputs(rows)), rows });
  }
  const geo = useGeocode(
    typeof event.latitude === 'number' && typeof event.longitude === 'number' ? { lat: event.latitude, lon: event.longitude } : null,
  );

  useEffect(() => {
    if (focusToken === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusToken]);

  const handleSubmit = async (submit: FormEvent<HTMLFormElement>) => {
    submit.preventDefault();
    if (pending) return;
    setServerError(null);
    // An unchanged (even past) date may be kept; a new one must not be earlier than today.
    const original = splitEventDate(event.date);
    const found = validateEventFields(values, { allowPastDate: values.date === original.date });
    const policyProblems = validateRefundPolicy(policy);
    const typeProblems = typeRows ? validateTypeRows(typeRows.rows) : {};
    setErrors(found);
    setPolicyErrors(policyProblems);
    setTypeErrors(typeProblems);
    if ([...Object.values(found), ...Object.values(policyProblems), ...Object.values(typeProblems)].some(Boolean)) {
      setFocusToken((token) => token + 1);
      return;
    }
    setPending(true);
    try {
      const saved = await updateEvent(event._id, {
        title: values.title.trim(),
        description: values.description.trim(),
        date: joinEventDate(values.date, values.time),
        location: values.location.trim(),
        capacity: parseCapacity(values.capacity),
        refundPolicy: refundPolicyInput(policy),
        ...(event.isPaid && feeMode !== (event.feeMode ?? 'absorbed') ? { feeMode } : {}),
        // Without a map match the server keeps the stored point, or places a moved event itself.
        ...(geo.coords ? { latitude: geo.coords.lat, longitude: geo.coords.lon } : {}),
      });
      const typeList = typeRows ? typeInputs(typeRows.rows) : null;
      if (typeRows && typeList && JSON.stringify(typeList) !== typeRows.saved) {
        try {
          const stored = await saveTicketTypes(event._id, typeList);
          const rows = typeRowsOf(stored.ticketTypes);
          setTypeRows({ saved: JSON.stringify(typeInputs(rows)), rows });
        } catch (error) {
          const refusal = getServerFieldError(error);
          const key = refusal ? typeErrorKey(refusal.field) : null;
          if (refusal && key !== null) {
            setTypeErrors({ [key]: refusal.msg });
            setFocusToken((token) => token + 1);
          }
          setServerError(t('events.updatedTypesNotSaved', { reason: getErrorMessage(error, t('events.pleaseTryAgain')) }));
          setPending(false);
          return;
        }
      }
      // The organiser's changes to a published event wait for review beside it: the notice shows them.
      if (saved.pendingChange?.status === 'pending' && onProposed) {
        notify.info(t(saved.pendingChange.pausesSales ? 'event-review.savedPendingPaused' : 'event-review.savedPending'));
        onProposed(saved.pendingChange);
        setPending(false);
        return;
      }
      if (saved.reReview) notify.info(saved.msg ?? t('events.updatedBackInReview'));
      else notify.success(t('events.updated'));
      void navigate(paths.event(event._id));
    } catch (error) {
      setServerError(getErrorMessage(error, t('events.updateFailed')));
      setPending(false);
    }
  };

  return (
    <form ref={formRef} className="form event-form card" onSubmit={handleSubmit} noValidate>
      <EventFields
        values={values}
        errors={errors}
        geo={geo}
        onChange={(field, value) => {
          setValues((current) => ({ ...current, [field]: value }));
          if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
        }}
      />
      <RefundPolicyFields
        values={policy}
        errors={policyErrors}
        onChange={(field, value) => {
          setPolicy((current) => ({ ...current, [field]: value }));
          if (policyErrors[field]) setPolicyErrors((current) => ({ ...current, [field]: undefined }));
        }}
      />
      {event.isPaid ? (
        <fieldset className="event-form__pricing">
          <legend>{t('events.tickets')}</legend>
          {typeRows ? (
            <TicketTypesFields
              rows={typeRows.rows}
              errors={typeErrors}
              onChange={(rows, touched) => {
                setTypeRows((current) => (current ? { ...current, rows } : current));
                setTypeErrors((current) => errorsAfterEdit(current, touched));
              }}
              disabled={pending}
              dates={seriesDates.data}
            />
          ) : types.error ? (
            <p className="form-message form-message--error" role="alert">
              {t('events.typesLoadFailed')}{' '}
              <Button variant="ghost" className="btn--sm" onClick={() => void types.refetch()}>
                {t('events.tryAgain')}
              </Button>
            </p>
          ) : (
            <p className="muted" role="status">
              {t('events.loadingTypes')}
            </p>
          )}
          <FeeModeField value={feeMode} onChange={setFeeMode} disabled={pending} />
        </fieldset>
      ) : null}
      {reviewed ? <p className="muted review-note">{t('event-review.formNoteLive')}</p> : null}
      {pausesSales ? (
        <p className="review-notice review-warning" role="alert" data-testid="sales-pause-warning">
          <strong>{t('event-review.formWarnPause')}</strong>
        </p>
      ) : null}
      {serverError ? <FormMessage tone="error">{serverError}</FormMessage> : null}
      <Button type="submit" block loading={pending} loadingText={t('events.updating')}>
        {t('events.update')}
      </Button>
    </form>
  );
}
