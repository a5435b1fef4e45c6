/* ADMIN DASHBOARD (docs/product.md /admin): role admin only; approve, disapprove and delete events; refunds. */
import { Link } from 'react-router-dom';
import { PageLoader } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { formatPrice } from '../../lib/format';
import { RichText, useT } from '../../lib/i18n';
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
  load: 'admin.loadFailed',
  approve: 'admin.approveFailed',
  disapprove: 'admin.disapproveFailed',
  delete: 'admin.deleteFailed',
  save: 'admin.updateFailed',
  preferServerMessage: false,
};

export default function AdminRoute() {
  const t = useT();
  useDocumentTitle(t('admin.dashboardTitle'));
  const access = useAdminGuard();
  const admin = useAdminEvents(access === 'allowed', messages);

  if (access !== 'allowed') return <PageLoader label={t('admin.checkingAccess')} />;

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
        <h1>{t('admin.dashboardTitle')}</h1>
        <p className="lead">
          <RichText id="admin.dashboardIntro" parts={{ link: <Link to={paths.adminScraped}>{t('admin.dashboardIntroLink')}</Link> }} />
        </p>
      </header>
      <AdminEventsView admin={admin} loadingLabel={t('admin.loadingEvents')}>
        <AdminEventList title={t('admin.pendingEvents')} events={pending} empty={t('admin.noPendingEvents')} renderCard={card} />
        <ModerationSection />
        <RefundsSection />
        <AdminEventList title={t('admin.approvedEvents')} events={approved} empty={t('admin.noApprovedEvents')} renderCard={card} />
        <AdminEventList title={t('admin.cancelledEvents')} events={cancelled} empty={t('admin.noCancelledEvents')} renderCard={card} collapsible />
        <AdminEventList title={t('admin.allEvents')} events={all} empty={t('admin.noEvents')} renderCard={card} collapsible />
      </AdminEventsView>
    </div>
  );
}
