/*
 * "Waitlist" on the event page, for its organiser and admins (the route passes it into EventDetailView's
 * organiserPanels slot). Like the refunds panel, the list's code and data load only when it is opened.
 */
import { lazy } from 'react';
import { DisclosurePanel } from '../../../components/ui/disclosure-panel';
import '../waitlist.css';

const WaitlistSummary = lazy(() => import('./waitlist-summary'));

export function WaitlistPanel({ eventId }: { eventId: string }) {
  return (
    <DisclosurePanel
      title="Waitlist"
      showLabel="Show waitlist"
      hideLabel="Hide waitlist"
      loadingText="Loading the waitlist…"
      className="waitlist-panel"
      headerClassName="waitlist-panel__header"
      titleClassName="waitlist-panel__title"
    >
      <WaitlistSummary eventId={eventId} />
    </DisclosurePanel>
  );
}
