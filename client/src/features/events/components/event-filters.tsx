import type { FormEvent } from 'react';
import { TextField, type TextFieldProps } from '../../../components/ui/form-field';
import '../forms.css';
import { useT } from '../../../lib/i18n';

interface EventFiltersProps {
  q: string;
  location: string;
  free: boolean;
  onQueryChange: (value: string) => void;
  onLocationChange: (value: string) => void;
  onFreeChange: (value: boolean) => void;
  onSubmit: () => void;
}

/** A search box of the filters: Enter searches, no autocomplete, 200 characters at most. */
function SearchBox({ onValueChange, ...field }: Omit<TextFieldProps, 'onChange'> & { onValueChange: (value: string) => void }) {
  return (
    <TextField
      type="search"
      autoComplete="off"
      enterKeyHint="search"
      maxLength={200}
      {...field}
      onChange={(event) => onValueChange(event.target.value)}
    />
  );
}

/** Search box plus the optional location and price filters of /events. */
export function EventFilters({ q, location, free, onQueryChange, onLocationChange, onFreeChange, onSubmit }: EventFiltersProps) {
  const t = useT();
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form className="event-filters" role="search" aria-label={t('events.searchEvents')} onSubmit={handleSubmit}>
      <SearchBox
        className="event-filters__query"
        label={t('events.search')}
        name="q"
        placeholder={t('events.searchPlaceholder')}
        value={q}
        onValueChange={onQueryChange}
      />
      <SearchBox
        className="event-filters__location"
        label={t('events.location')}
        name="location"
        placeholder={t('events.locationPlaceholder')}
        value={location}
        onValueChange={onLocationChange}
      />
      <label className="checkbox event-filters__free">
        <input type="checkbox" name="free" checked={free} onChange={(event) => onFreeChange(event.target.checked)} />
        <span>{t('events.freeOnly')}</span>
      </label>
      {/* Enter searches at once; the button is there for pointer users who expect one. */}
      <button type="submit" className="btn btn--primary event-filters__submit">
        {t('events.searchButton')}
      </button>
    </form>
  );
}
