/* ADMIN DASHBOARD (docs/product.md /admin): role admin only; approve, disapprove and delete events; refunds. */
import { SearchField } from '../../components/ui/search-field';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { PageLoader } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { useDebouncedValue } from '../../hooks/use-debounced-value';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { formatPrice } from '../../lib/format';
import { RichText, useT } from '../../lib/i18n';
import type { ListedEvent } from '../../types/api';
import {
  AdminEventList,
  AdminEventsView,
  AccountDeletionsSection,
  EventChangesSection,
  FeesSection,
  FinanceSection,
  ModeratedEventCard,
  ModerationSection,
  RefundsSection,
  useAdminEventList,
  useAdminEvents,
  useAdminGuard,
} from '../../features/admin';
import '../../features/admin/admin.css';
import '../../components/event-review/change-table.css';

const messages = {
  load: 'admin.loadFailed',
  approve: 'admin.approveFailed',
  disapprove: 'admin.disapproveFailed',
  delete: 'admin.deleteFailed',
  save: 'admin.updateFailed',
  preferServerMessage: false,
};

const PENDING = { status: 'pending' } as const;
const APPROVED = { status: 'approved' } as const;
const CANCELLED = { status: 'cancelled' } as const;

export default function AdminRoute() {
  const t = useT();
  useDocumentTitle(t('admin.dashboardTitle'));
  const access = useAdminGuard();
  const allowed = access === 'allowed';
  const [search, setSearch] = useState('');
  // Words of a title or place narrow every list; asked once typing pauses.
  const q = useDebouncedValue(search.trim(), 300) || undefined;
  // Each list pages on its own (GET /api/admin/events), soonest first; its heading counts the whole list.
  const pending = useAdminEventList(allowed, { ...PENDING, q });
  const approved = useAdminEventList(allowed, { ...APPROVED, q });
  const cancelled = useAdminEventList(allowed, { ...CANCELLED, q });
  const all = useAdminEventList(allowed, { q });
  const admin = useAdminEvents([pending, approved, cancelled, all], messages);

  if (!allowed) return <PageLoader label={t('admin.checkingAccess')} />;

  const card = (event: ListedEvent) => (
    <ModeratedEventCard admin={admin} event={event} price={formatPrice(event.isPaid, event.ticketPrice, event.ticketPriceMax)} />
  );

  return (
    <div className="page">
      <header className="page-hero">
        <h1>{t('admin.dashboardTitle')}</h1>
        <p className="lead">
          <RichText id="admin.dashboardIntro" parts={{ link: <Link to={paths.adminScraped}>{t('admin.dashboardIntroLink')}</Link> }} />
        </p>
        <SearchField label={t('admin.searchEvents')} placeholder={t('admin.searchEventsPlaceholder')} value={search} onChange={setSearch} />
      </header>
      <AdminEventsView admin={admin} loadingLabel={t('admin.loadingEvents')}>
        <AdminEventList title={t('admin.pendingEvents')} list={pending} empty={t('admin.noPendingEvents')} renderCard={card} />
        <EventChangesSection onDecided={approved.reload} />
        <ModerationSection />
        <RefundsSection />
        <FinanceSection />
        <FeesSection />
        <AccountDeletionsSection />
        <AdminEventList title={t('admin.approvedEvents')} list={approved} empty={t('admin.noApprovedEvents')} renderCard={card} />
        <AdminEventList title={t('admin.cancelledEvents')} list={cancelled} empty={t('admin.noCancelledEvents')} renderCard={card} collapsible />
        <AdminEventList title={t('admin.allEvents')} list={all} empty={t('admin.noEvents')} renderCard={card} collapsible />
      </AdminEventsView>
    </div>
  );
}
