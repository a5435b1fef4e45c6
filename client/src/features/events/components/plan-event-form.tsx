/*
 * /plan form (docs/product.md). The image is uploaded to POST /api/uploads when the form is submitted
 * (once per chosen file, so a retry after a failed post does not upload it again), then the event
 * is created with POST /api/events/addevnt and waits for approval. A paid event's ticket types are then
 * saved with PUT /api/events/:id/ticket-types, unless they say no more than one price (the event is then
 * created exactly as before types). Should that second call be refused, the event exists: the form stays,
 * shows the refusal at the row's field, and its button saves only the types.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { FormMessage } from '../../../components/ui/form-message';
import { paths } from '../../../config/paths';
import { getErrorMessage, getServerFieldError } from '../../../lib/errors';
import { useSession } from '../../../hooks/use-session';
import { useGeocode } from '../hooks/use-geocode';
import { createEvent, saveTicketTypes, uploadImage, type EventItem } from '../api/events-api';
import { noRefundValues, parseCapacity, refundPolicyInput, validateImage, validatePlanForm, type FormErrors, type PlanFormValues } from '../lib/event-form';
import { cheapestPrice, defaultTypeRows, errorsAfterEdit, isPlainPrice, newTypeRow, typeErrorKey, typeInputs, validateTypeRows, type TicketTypeErrors, type TicketTypeRow } from '../lib/ticket-type-rows';
import { todayInKenya } from '../../../lib/event-clock';
import { joinEventDate } from '../lib/event-time';
import { EventFields } from './event-fields';
import type { FeeMode } from '../../../types/api';
import { FeeModeField } from './fee-mode-field';
import { RefundPolicyFields } from './refund-policy-fields';
import { TicketTypesFields } from './ticket-types-fields';
import '../forms.css';
import { RichText, useT } from '../../../lib/i18n';

const DRAFT_KEY = 'tukio-plan-draft';
const TYPES_DRAFT_KEY = 'tukio-plan-draft-types';

const emptyValues: PlanFormValues = {
  title: '',
  description: '',
  date: '',
  time: '',
  location: '',
  capacity: '',
  isPaid: false,
  ...noRefundValues,
};

/** Text typed before being sent to log in is kept for the tab's session (never the image). */
function readDraft(): PlanFormValues {
  try {
    const raw = window.sessionStorage.getItem(DRAFT_KEY);
    if (!raw) return emptyValues;
    const saved = JSON.parse(raw) as Partial<PlanFormValues>;
    const values = { ...emptyValues };
    for (const key of Object.keys(emptyValues) as Array<keyof PlanFormValues>) {
      const value = saved[key];
      if (typeof value === typeof emptyValues[key]) (values as Record<string, unknown>)[key] = value;
    }
    return values;
  } catch {
    return emptyValues;
  }
}

/** The ticket type rows typed before logging in, kept like the rest of the draft. */
function readTypesDraft(): TicketTypeRow[] {
  try {
    const saved = JSON.parse(window.sessionStorage.getItem(TYPES_DRAFT_KEY) ?? 'null') as unknown;
    const rows = Array.isArray(saved) ? saved.filter((row): row is TicketTypeRow => typeof row === 'object' && row !== null && typeof (row as TicketTypeRow).name === 'string') : [];
    if (rows.length === 0) return defaultTypeRows();
    // Fresh keys; a draft is for a new event, so no stored type ids.
    return rows.map((row) => newTypeRow({ name: row.name, price: row.price, capacity: row.capacity, salesStart: row.salesStart, salesEnd: row.salesEnd, maxPerOrder: row.maxPerOrder, instalmentPercent: row.instalmentPercent, instalmentDue: row.instalmentDue, instalmentFee: row.instalmentFee }));
  } catch {
    return defaultTypeRows();
  }
}

function saveDraft(values: PlanFormValues | null, rows: TicketTypeRow[] = []) {
  try {
    if (values) {
      window.sessionStorage.setItem(DRAFT_KEY, JSON.stringify(values));
      window.sessionStorage.setItem(TYPES_DRAFT_KEY, JSON.stringify(rows));
    } else {
      window.sessionStorage.removeItem(DRAFT_KEY);
      window.sessionStorage.removeItem(TYPES_DRAFT_KEY);
    }
  } catch {
    /* storage unavailable */
  }
}

export function PlanEventForm() {
  const t = useT();
  const { user, isLoggedIn } = useSession();
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const fileInputRef = useRef<HTMLInputElement>(null);
  const ids = useId();

  const [values, setValues] = useState<PlanFormValues>(readDraft);
  const [errors, setErrors] = useState<FormErrors<PlanFormValues>>({});
  const [typeRows, setTypeRows] = useState<TicketTypeRow[]>(readTypesDraft);
  const [typeErrors, setTypeErrors] = useState<TicketTypeErrors>({});
  const [feeMode, setFeeMode] = useState<FeeMode>('absorbed');
  /** Created, but its ticket types were refused: the button saves only them. */
  const [createdPendingTypes, setCreatedPendingTypes] = useState<EventItem | null>(null);
  const [image, setImage] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [uploaded, setUploaded] = useState<{ file: File; url: string } | null>(null);
  const [phase, setPhase] = useState<'idle' | 'uploading' | 'posting' | 'saving-types'>('idle');
  const [serverError, setServerError] = useState<string | null>(null);
  const [posted, setPosted] = useState<EventItem | null>(null);
  const [focusToken, setFocusToken] = useState(0);
  const geo = useGeocode(null);

  // Preview address of the chosen image, released when it changes.
  useEffect(() => {
    if (!image) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(image);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [image]);

  // After a failed validation, move focus to the first field in error.
  useEffect(() => {
    if (focusToken === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusToken]);

  const change = <K extends keyof PlanFormValues>(field: K, value: PlanFormValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const chooseImage = (file: File | null) => {
    const error = validateImage(file);
    setErrors((current) => ({ ...current, image: error ?? undefined }));
    if (error) {
      // Keep the previous valid choice; clear the rejected file from the input.
      if (fileInputRef.current) fileInputRef.current.value = '';
      return;
    }
    setImage(file);
  };

  const removeImage = () => {
    setImage(null);
    if (fileInputRef.current) fileInputRef.current.value = '';
    setErrors((current) => ({ ...current, image: undefined }));
  };

  const handleSubmit = async (submit: FormEvent<HTMLFormElement>) => {
    submit.preventDefault();
    if (phase !== 'idle') return;
    setServerError(null);
    if (!isLoggedIn || !user) {
      saveDraft(values, typeRows);
      void navigate(paths.login, { state: { from: paths.plan } });
      return;
    }
    const found = validatePlanForm(values, image);
    const typeProblems = values.isPaid ? validateTypeRows(typeRows) : {};
    setErrors(found);
    setTypeErrors(typeProblems);
    if ([...Object.values(found), ...Object.values(typeProblems)].some(Boolean)) {
      setFocusToken((token) => token + 1);
      return;
    }
    if (createdPendingTypes) {
      await saveTypes(createdPendingTypes);
      return;
    }

    try {
      let imageUrl: string | null = null;
      if (image) {
        if (uploaded?.file === image) imageUrl = uploaded.url;
        else {
          setPhase('uploading');
          imageUrl = await uploadImage(image);
          setUploaded({ file: image, url: imageUrl });
        }
      }
      setPhase('posting');
      const event = await createEvent({
        title: values.title.trim(),
        description: values.description.trim(),
        date: joinEventDate(values.date, values.time),
        location: values.location.trim(),
        latitude: geo.coords?.lat ?? null,
        longitude: geo.coords?.lon ?? null,
        user: user._id,
        image: imageUrl,
        isPaid: values.isPaid,
        // The cheapest type: what the event's answers call ticketPrice once the types are saved.
        ticketPrice: values.isPaid ? cheapestPrice(typeRows) : 0,
        capacity: parseCapacity(values.capacity),
        refundPolicy: refundPolicyInput(values),
        ...(values.isPaid ? { feeMode } : {}),
      });
      saveDraft(null);
      if (values.isPaid && !isPlainPrice(typeRows)) await saveTypes(event);
      else setPosted(event);
    } catch (error) {
      setServerError(getErrorMessage(error, t('events.postFailed')));
    } finally {
      setPhase('idle');
    }
  };

  /** PUT the ticket types of the event just created; a refusal stays on the form, at the row's field. */
  const saveTypes = async (event: EventItem) => {
    setPhase('saving-types');
    try {
      await saveTicketTypes(event._id, typeInputs(typeRows));
      setCreatedPendingTypes(null);
      setPosted(event);
    } catch (error) {
      setCreatedPendingTypes(event);
      const refusal = getServerFieldError(error);
      const key = refusal ? typeErrorKey(refusal.field) : null;
      if (refusal && key !== null) {
        setTypeErrors({ [key]: refusal.msg });
        setFocusToken((token) => token + 1);
      }
      setServerError(t('events.typesNotSaved', { reason: getErrorMessage(error, t('events.pleaseTryAgain')) }));
    } finally {
      setPhase('idle');
    }
  };

  const startOver = () => {
    setValues(emptyValues);
    setErrors({});
    setTypeRows(defaultTypeRows());
    setTypeErrors({});
    removeImage();
    setUploaded(null);
    setPosted(null);
    geo.invalidate();
  };

  if (posted) {
    return (
      <div className="plan-success card" role="status">
        <h2>{t('events.posted')}</h2>
        <p>
          <RichText id="events.sentForReview" parts={{ title: <strong>{posted.title}</strong> }} />
        </p>
        <div className="button-row">
          <Link className="btn btn--primary" to={paths.event(posted._id)}>
            {t('events.viewYourEvent')}
          </Link>
          <Link className="btn btn--secondary" to={paths.profile}>
            {t('events.myEvents')}
          </Link>
          <Button variant="ghost" onClick={startOver}>
            {t('events.postAnother')}
          </Button>
        </div>
      </div>
    );
  }

  const pending = phase !== 'idle';
  return (
    <form ref={formRef} className="form event-form card" onSubmit={handleSubmit} noValidate aria-describedby={`${ids}-required`}>
      <p className="muted" id={`${ids}-required`}>
        {t('events.allRequired')}
      </p>
      {!isLoggedIn ? (
        <p className="notice">
          <span>
            <RichText id="events.needLogin" parts={{ login: <Link to={paths.login} state={{ from: paths.plan }}>{t('events.logIn')}</Link> }} />
          </span>
        </p>
      ) : null}

      <EventFields values={values} errors={errors} onChange={(field, value) => change(field, value)} geo={geo} minDate={todayInKenya()} />

      <fieldset className="event-form__pricing">
        <legend>{t('events.tickets')}</legend>
        <label className="checkbox">
          <input type="checkbox" name="isPaid" checked={values.isPaid} disabled={createdPendingTypes !== null} onChange={(event) => change('isPaid', event.target.checked)} />
          <span>{t('events.paidEvent')}</span>
        </label>
        {values.isPaid ? (
          <>
            <TicketTypesFields
              rows={typeRows}
              errors={typeErrors}
              onChange={(rows, touched) => {
                setTypeRows(rows);
                setTypeErrors((current) => errorsAfterEdit(current, touched));
              }}
              disabled={pending}
            />
            <FeeModeField value={feeMode} onChange={setFeeMode} disabled={pending} />
          </>
        ) : (
          <p className="muted event-form__free-note">{t('events.freeNote')}</p>
        )}
      </fieldset>

      <RefundPolicyFields values={values} errors={errors} onChange={(field, value) => change(field, value as PlanFormValues[typeof field])} />

      <div className={`field${errors.image ? ' field--invalid' : ''}`}>
        <label className="field__label" htmlFor={`${ids}-image`}>
          {t('events.imageOptional')}
        </label>
        <input
          ref={fileInputRef}
          id={`${ids}-image`}
          className="field__control event-form__file"
          type="file"
          name="image"
          accept="image/*"
          aria-invalid={errors.image ? true : undefined}
          aria-describedby={`${ids}-image-hint${errors.image ? ` ${ids}-image-error` : ''}`}
          onChange={(event) => chooseImage(event.target.files?.[0] ?? null)}
        />
        <p className="field__hint" id={`${ids}-image-hint`}>
          {t('events.imageHint')}
        </p>
        {errors.image ? (
          <p className="field__error" id={`${ids}-image-error`}>
            {errors.image}
          </p>
        ) : null}
        {preview && image ? (
          <div className="event-form__preview">
            <img src={preview} alt={t('events.previewOf', { name: image.name })} />
            <Button variant="ghost" className="btn--sm" onClick={removeImage}>
              {t('events.removeImage')}
            </Button>
          </div>
        ) : null}
      </div>

      {serverError ? <FormMessage tone="error">{serverError}</FormMessage> : null}
      <Button
        type="submit"
        block
        loading={pending}
        loadingText={phase === 'uploading' ? t('events.uploadingImage') : phase === 'saving-types' ? t('events.savingTypes') : t('events.postingEvent')}
      >
        {createdPendingTypes ? t('events.saveTypes') : t('events.postEventButton')}
      </Button>
    </form>
  );
}
