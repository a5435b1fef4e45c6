/* Edit form of the scraped-events page. Saving always publishes the event (status approved). */
import { EVENT_DESCRIPTION_MAX, EVENT_LOCATION_MAX, EVENT_TITLE_MAX } from '@tukio/shared/limits';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { TextAreaField, TextField } from '../../../components/ui/form-field';
import type { ListedEvent } from '../../../types/api';
import type { EventUpdateInput } from '../api/events-api';
import { validateEventFields, type EventFormValues, type FormErrors } from '../lib/event-form';
import { joinEventDate, splitEventDate } from '../lib/event-time';
import { useT } from '../../../lib/i18n';

interface ScrapedEventFormProps {
  /** As the admin list has it (no `registeredUsers`). */
  event: ListedEvent;
  saving: boolean;
  onSave: (changes: EventUpdateInput) => void;
  onCancel: () => void;
}

export function ScrapedEventForm({ event, saving, onSave, onCancel }: ScrapedEventFormProps) {
  const t = useT();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<EventFormValues>(() => ({
    title: event.title,
    description: event.description,
    ...splitEventDate(event.date),
    location: event.location,
    capacity: '',
  }));
  const [errors, setErrors] = useState<FormErrors<EventFormValues>>({});
  const [focusToken, setFocusToken] = useState(0);

  useEffect(() => {
    if (focusToken > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusToken]);

  const set = (field: keyof EventFormValues) => (change: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: change.target.value }));

  const submit = (submitEvent: FormEvent<HTMLFormElement>) => {
    submitEvent.preventDefault();
    if (saving) return;
    const found = validateEventFields(values, { allowPastDate: true });
    setErrors(found);
    if (Object.values(found).some(Boolean)) return setFocusToken((token) => token + 1);
    onSave({
      title: values.title.trim(),
      description: values.description.trim(),
      date: joinEventDate(values.date, values.time),
      location: values.location.trim(),
      status: 'approved',
    });
  };

  return (
    <form ref={formRef} className="form" onSubmit={submit} noValidate>
      <TextField label={t('events.title')} required maxLength={EVENT_TITLE_MAX} value={values.title} error={errors.title} onChange={set('title')} />
      <TextAreaField
        label={t('events.description')}
        required
        rows={5}
        maxLength={EVENT_DESCRIPTION_MAX}
        value={values.description}
        error={errors.description}
        onChange={set('description')}
      />
      <div className="form__row">
        <TextField label={t('events.date')} type="date" required value={values.date} error={errors.date} onChange={set('date')} />
        <TextField label={t('events.time')} type="time" required value={values.time} error={errors.time} onChange={set('time')} />
      </div>
      <TextField label={t('events.location')} required maxLength={EVENT_LOCATION_MAX} value={values.location} error={errors.location} onChange={set('location')} />
      <p className="muted">{t('events.savingPublishes')}</p>
      <div className="button-row">
        <Button type="submit" loading={saving} loadingText={t('events.saving')}>
          {t('events.saveAndApprove')}
        </Button>
        <Button variant="ghost" onClick={onCancel} disabled={saving}>
          {t('events.cancel')}
        </Button>
      </div>
    </form>
  );
}
