/*
 * Fields shared by the plan and edit forms: title, description, date, time, location (with the map
 * preview and geocoding on blur) and capacity.
 */
import { EVENT_DESCRIPTION_MAX, EVENT_LOCATION_MAX, EVENT_TITLE_MAX } from '@tukio/shared/limits';
import { TextAreaField, TextField } from '../../../components/ui/form-field';
import type { EventFormValues, FormErrors } from '../lib/event-form';
import type { useGeocode } from '../hooks/use-geocode';
import { LocationMapPreview } from './location-map-preview';

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
  return (
    <>
      <TextField
        label="Title"
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
        label="Description"
        name="description"
        required
        maxLength={EVENT_DESCRIPTION_MAX}
        rows={6}
        hint="What will happen, who it is for and what to bring."
        value={values.description}
        error={errors.description}
        disabled={disabled}
        onChange={(event) => onChange('description', event.target.value)}
      />
      <div className="form__row">
        <TextField
          label="Date"
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
          label="Time"
          name="time"
          type="time"
          required
          hint="Kenyan time (EAT)."
          value={values.time}
          error={errors.time}
          disabled={disabled}
          onChange={(event) => onChange('time', event.target.value)}
        />
      </div>
      <TextField
        label="Location"
        name="location"
        required
        maxLength={EVENT_LOCATION_MAX}
        autoComplete="off"
        placeholder="e.g. KICC, Nairobi"
        hint="Venue and town. Leave the field to see it on the map."
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
        label="Capacity (optional)"
        name="capacity"
        type="number"
        inputMode="numeric"
        min={1}
        step={1}
        hint="Maximum number of attendees. Leave empty for no limit."
        value={values.capacity}
        error={errors.capacity}
        disabled={disabled}
        onChange={(event) => onChange('capacity', event.target.value)}
      />
    </>
  );
}
