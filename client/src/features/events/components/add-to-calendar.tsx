import { notify } from '../../../lib/notify';
import { downloadIcs, type CalendarEvent } from '../lib/ics';
import { useT } from '../../../lib/i18n';

/** Downloads an .ics file built in the browser (works with Google, Apple and Outlook calendars). */
export function AddToCalendar({ event }: { event: CalendarEvent }) {
  const t = useT();
  return (
    <button
      type="button"
      className="btn btn--ghost btn--sm"
      onClick={() => {
        if (!downloadIcs(event)) notify.error(t('events.noValidDate'));
      }}
    >
      <svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true" focusable="false">
        <rect x="3.5" y="5" width="17" height="15" rx="2" />
        <path d="M3.5 10h17M8 3v4M16 3v4M12 13v5M9.5 15.5h5" />
      </svg>
      {t('events.addToCalendar')}
    </button>
  );
}
