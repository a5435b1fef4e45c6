/*
 * "Refunds" on the event page, for its organiser and admins: shown before and after a cancellation (the
 * organiser tools go away with the event, the money going back does not). The summary's code and data load
 * only when it is opened, so nobody else downloads them.
 */
import { lazy } from 'react';
import { DisclosurePanel } from '../../../components/ui/disclosure-panel';

const EventRefundsSummary = lazy(() => import('./event-refunds-summary'));

export function EventRefundsPanel({ eventId, eventStatus }: { eventId: string; eventStatus: string }) {
  return (
    <DisclosurePanel
      title="Refunds"
      showLabel="Show refunds"
      hideLabel="Hide refunds"
      loadingText="Loading refunds…"
      className="event-manage event-refunds"
      headerClassName="event-refunds__header"
      titleClassName="event-manage__title"
    >
      {/* The status is part of the key: what a cancellation just changed is read again. */}
      <EventRefundsSummary eventId={eventId} eventStatus={eventStatus} />
    </DisclosurePanel>
  );
}
