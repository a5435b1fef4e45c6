/*
 * "Refunds" on the event page, for its organiser and admins: shown before and after a cancellation (the
 * organiser tools go away with the event, the money going back does not). The summary's code and data load
 * only when it is opened, so nobody else downloads them.
 */
import { lazy, Suspense, useId, useState } from 'react';
import { Button } from '../../../components/ui/button';

const EventRefundsSummary = lazy(() => import('./event-refunds-summary'));

export function EventRefundsPanel({ eventId, eventStatus }: { eventId: string; eventStatus: string }) {
  const headingId = useId();
  const bodyId = useId();
  const [open, setOpen] = useState(false);
  return (
    <section className="event-manage event-refunds" aria-labelledby={headingId}>
      <div className="event-refunds__header">
        <h2 id={headingId} className="event-manage__title">
          Refunds
        </h2>
        <Button variant="secondary" className="btn--sm" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen((shown) => !shown)}>
          {open ? 'Hide refunds' : 'Show refunds'}
        </Button>
      </div>
      <div id={bodyId} hidden={!open}>
        {open ? (
          <Suspense fallback={<p className="muted" role="status">Loading refunds…</p>}>
            {/* The status is part of the key: what a cancellation just changed is read again. */}
            <EventRefundsSummary eventId={eventId} eventStatus={eventStatus} />
          </Suspense>
        ) : null}
      </div>
    </section>
  );
}
