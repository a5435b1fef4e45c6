import { useId, type FormEvent } from 'react';
import '../forms.css';

interface EventFiltersProps {
  q: string;
  location: string;
  free: boolean;
  onQueryChange: (value: string) => void;
  onLocationChange: (value: string) => void;
  onFreeChange: (value: boolean) => void;
  onSubmit: () => void;
}

/** Search box plus the optional location and price filters of /events. */
export function EventFilters({ q, location, free, onQueryChange, onLocationChange, onFreeChange, onSubmit }: EventFiltersProps) {
  const id = useId();
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form className="event-filters" role="search" aria-label="Search events" onSubmit={handleSubmit}>
      <div className="field event-filters__query">
        <label className="field__label" htmlFor={`${id}-q`}>
          Search
        </label>
        <input
          id={`${id}-q`}
          className="field__control"
          type="search"
          name="q"
          placeholder="Search events..."
          autoComplete="off"
          enterKeyHint="search"
          maxLength={200}
          value={q}
          onChange={(event) => onQueryChange(event.target.value)}
        />
      </div>
      <div className="field event-filters__location">
        <label className="field__label" htmlFor={`${id}-location`}>
          Location
        </label>
        <input
          id={`${id}-location`}
          className="field__control"
          type="search"
          name="location"
          placeholder="e.g. Nairobi"
          autoComplete="off"
          enterKeyHint="search"
          maxLength={200}
          value={location}
          onChange={(event) => onLocationChange(event.target.value)}
        />
      </div>
      <label className="checkbox event-filters__free">
        <input type="checkbox" name="free" checked={free} onChange={(event) => onFreeChange(event.target.checked)} />
        <span>Free events only</span>
      </label>
      {/* Enter searches at once; the button is there for pointer users who expect one. */}
      <button type="submit" className="btn btn--primary event-filters__submit">
        Search
      </button>
    </form>
  );
}
