/*
 * Fields shared by the plan and edit forms: title, description, date, time, location (with the map
 * preview and geocoding on blur) and capacity.
 */
import { EVENT_DESCRIPTION_MAX, EVENT_LOCATION_MAX, EVENT_TITLE_MAX } from '@tukio/shared/limits';
import { TextAreaField, TextField } from '../../../components/ui/form-field';
import type { EventFormValues, FormErrors } from '../lib/event-form';
import type { useGeocode } from '../hooks/use-geocode';
import { LocationMapPreview } from './location-map-preview';
import { useT } from '../../../lib/i18n';

interface EventFieldsProps {
  values: EventFormValues;
  errors: FormErrors<EventFormValues>;
  onChange: (field: keyof EventFormValues, value: string) => void;
  geo: ReturnType<typeof useGeocode>;
  /** `min` of the date picker (today for new events). */
  minDate?: string;
  disabled?: boolean;
}

export function EventFields({ values, errors, onChange, geo, minDate, disabled }: EventFieldsProps) {
  const t = useT();
  return (
    <>
      <TextField
        label={t('events.title')}
        name="title"
        required
        maxLength={EVENT_TITLE_MAX}
        autoComplete="off"
        value={values.title}
        error={errors.title}
        disabled={disabled}
        onChange={(event) => onChange('title', event.target.value)}
      />
      <TextAreaField
        label={t('events.description')}
        name="description"
        required
        maxLength={EVENT_DESCRIPTION_MAX}
        rows={6}
        hint={t('events.descriptionHint')}
        value={values.description}
        error={errors.description}
        disabled={disabled}
        onChange={(event) => onChange('description', event.target.value)}
      />
      <div className="form__row">
        <TextField
          label={t('events.date')}
          name="date"
          type="date"
          required
          min={minDate}
          value={values.date}
          error={errors.date}
          disabled={disabled}
          onChange={(event) => onChange('date', event.target.value)}
        />
        <TextField
          label={t('events.time')}
          name="time"
          type="time"
          required
          hint={t('events.timeHint')}
          value={values.time}
          error={errors.time}
          disabled={disabled}
          onChange={(event) => onChange('time', event.target.value)}
        />
      </div>
      <TextField
        label={t('events.location')}
        name="location"
        required
        maxLength={EVENT_LOCATION_MAX}
        autoComplete="off"
        placeholder={t('events.locationExample')}
        hint={t('events.locationHint')}
        value={values.location}
        error={errors.location}
        disabled={disabled}
        onChange={(event) => {
          onChange('location', event.target.value);
          geo.invalidate();
        }}
        onBlur={(event) => void geo.lookup(event.target.value)}
      />
      <LocationMapPreview coords={geo.coords} status={geo.status} place={geo.place} />
      <TextField
        label={t('events.capacityOptional')}
        name="capacity"
        type="number"
        inputMode="numeric"
        min={1}
        step={1}
        hint={t('events.capacityHint')}
        value={values.capacity}
        error={errors.capacity}
        disabled={disabled}
        onChange={(event) => onChange('capacity', event.target.value)}
      />
    </>
  );
}
