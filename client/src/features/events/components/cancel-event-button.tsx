/*
 * "Cancel event" for the event's organiser and admins (event page, edit page, the profile's My Events). The
 * dialog's code downloads when the button is first pointed at, focused or pressed: visitors never load it.
 */
import { Suspense, useState } from 'react';
import { Button } from '../../../components/ui/button';
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
