/* ADMIN DASHBOARD (docs/product.md /admin): role admin only; approve, disapprove and delete events; refunds. */
import { Link } from 'react-router-dom';
import { PageLoader } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { formatPrice } from '../../lib/format';
import type { EventItem } from '../../features/events';
import {
  AdminEventList,
  AdminEventsView,
  isApproved,
  isCancelled,
  isPending,
  ModeratedEventCard,
  ModerationSection,
  RefundsSection,
  useAdminEvents,
  useAdminGuard,
} from '../../features/admin';
import '../../features/admin/admin.css';

const messages = {
  load: 'Failed to fetch events',
  approve: 'Failed to approve event',
  disapprove: 'Failed to disapprove event',
  delete: 'Failed to delete event',
  save: 'Failed to update event',
  preferServerMessage: false,
};

export default function AdminRoute() {
  useDocumentTitle('Admin Dashboard');
  const access = useAdminGuard();
  const admin = useAdminEvents(access === 'allowed', messages);

  if (access !== 'allowed') return <PageLoader label="Checking access…" />;

  const all = admin.events ?? [];
  const pending = all.filter(isPending);
  const approved = all.filter(isApproved);
  const cancelled = all.filter(isCancelled);

  const card = (event: EventItem) => (
    <ModeratedEventCard admin={admin} event={event} price={formatPrice(event.isPaid, event.ticketPrice, event.ticketPriceMax)} />
  );

  return (
    <div className="page">
      <header className="page-hero">
        <h1>Admin Dashboard</h1>
        <p className="lead">
          Review events before they go public, act on what users report, and follow the money going back to buyers. Imported events are managed on the{' '}
          <Link to={paths.adminScraped}>Scraped Events</Link> page.
        </p>
      </header>
      <AdminEventsView admin={admin} loadingLabel="Loading events…">
        <AdminEventList title="Pending Events" events={pending} empty="No events waiting for review." renderCard={card} />
        <ModerationSection />
        <RefundsSection />
        <AdminEventList title="Approved Events" events={approved} empty="No approved events yet." renderCard={card} />
        <AdminEventList title="Cancelled Events" events={cancelled} empty="No cancelled events." renderCard={card} collapsible />
        <AdminEventList title="All Events" events={all} empty="No events yet." renderCard={card} collapsible />
      </AdminEventsView>
    </div>
  );
}
