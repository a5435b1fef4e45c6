/*
 * "Cancel event" for the event's organiser and admins (event page, edit page, the profile's My Events). The
 * dialog's code downloads when the button is first pointed at, focused or pressed: visitors never load it.
 * Once the event has started its organiser can no longer cancel it (the server answers 409
 * `event_cancel_started`: the dialog's "every buyer is refunded in full" is an admin's call then, for an
 * event that never took place), so the organiser sees the button disabled and why.
 */
import { Suspense, useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useSession } from '../../../hooks/use-session';
import { hasStarted } from '../../../lib/event-clock';
import type { EventItem } from '../api/events-api';
import { lazyWithTexts, useT } from '../../../lib/i18n';

const loadDialog = () => import('./cancel-event-dialog');
const CancelEventDialog = lazyWithTexts(loadDialog);

export interface CancelEventButtonProps {
  event: EventItem;
  onCancelled: (event: EventItem) => void;
  /** Smaller button, for lists. */
  small?: boolean;
}

export function CancelEventButton({ event, onCancelled, small = false }: CancelEventButtonProps) {
  const t = useT();
  const [open, setOpen] = useState(false);
  // Mounted from the first opening on, so a reason typed and then set aside is still there when reopened.
  const [mounted, setMounted] = useState(false);
  const preload = () => void loadDialog().catch(() => undefined);
  const { user } = useSession();
  const noteId = useId();
  // An admin (not the organiser) may still cancel a started event; the server decides either way.
  if (hasStarted(event.date) && user?._id === event.user) {
    return (
      <span className="cancel-event__started">
        <Button
          variant="danger"
          className={small ? 'btn--sm' : undefined}
          disabled
          aria-describedby={noteId}
          aria-label={small ? t('events.cancelEventNamed', { title: event.title }) : undefined}
        >
          {t('events.cancelEvent')}
        </Button>
        {/* Styled by ./cancel-event.css where the page loads it: a stylesheet of the button's own would add its name to the home page's first load. */}
        <span id={noteId} className="cancel-event__started-note muted">
          {small ? t('events.cancelAfterStartShort') : t('events.cancelAfterStart')}
        </span>
      </span>
    );
  }

  return (
    <>
      <Button
        variant="danger"
        className={small ? 'btn--sm' : undefined}
        aria-haspopup="dialog"
        aria-label={small ? t('events.cancelEventNamed', { title: event.title }) : undefined}
        onPointerEnter={preload}
        onFocus={preload}
        onClick={() => {
          setMounted(true);
          setOpen(true);
        }}
      >
        {t('events.cancelEvent')}
      </Button>
      {mounted ? (
        <Suspense fallback={null}>
          <CancelEventDialog event={event} open={open} onClose={() => setOpen(false)} onCancelled={onCancelled} />
        </Suspense>
      ) : null}
    </>
  );
}
