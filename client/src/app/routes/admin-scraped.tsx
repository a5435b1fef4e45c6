/*
 * SCRAPED EVENTS (docs/product.md /admpst): admin only. Events owned by the system user, newest
 * first by date; every non-approved event counts as pending; paid prices shown with a dollar sign.
 */
import { useState } from 'react';
import { useModalDialog } from '../../hooks/use-modal-dialog';
import { Link } from 'react-router-dom';
import { Button } from '../../components/ui/button';
import { PageLoader } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { RichText, t as translate, useT } from '../../lib/i18n';
import { ScrapedEventForm, updateEvent } from '../../features/events';
import type { ListedEvent } from '../../types/api';
import { AdminEventList, AdminEventsView, ModeratedEventCard, SYSTEM_USER_ID, useAdminEventList, useAdminEvents, useAdminGuard } from '../../features/admin';
import '../../styles/overlay-dialog.css';
import '../../features/admin/admin.css';

const messages = {
  load: 'admin.loadFailed',
  approve: 'admin.scrapedApproveFailed',
  disapprove: 'admin.scrapedDisapproveFailed',
  delete: 'admin.scrapedDeleteFailed',
  save: 'admin.scrapedSaveFailed',
  preferServerMessage: true,
};

/** docs/product.md: the scraped page shows a paid price with a dollar sign. */
const dollarPrice = (event: ListedEvent) => (event.isPaid && event.ticketPrice > 0 ? `$${event.ticketPrice}` : translate('admin.free'));

/* The scraper's events (its system user's), latest date first, a page at a time (GET /api/admin/events). */
const PENDING = { status: 'pending', user: SYSTEM_USER_ID, order: 'desc' } as const;
const APPROVED = { status: 'approved', user: SYSTEM_USER_ID, order: 'desc' } as const;

export default function AdminScrapedRoute() {
  const t = useT();
  useDocumentTitle(t('admin.scrapedTitle'));
  const access = useAdminGuard();
  const allowed = access === 'allowed';
  const pending = useAdminEventList(allowed, PENDING);
  const approved = useAdminEventList(allowed, APPROVED);
  const admin = useAdminEvents([pending, approved], messages);
  const [editing, setEditing] = useState<ListedEvent | null>(null);
  const dialogRef = useModalDialog(editing !== null);

  if (!allowed) return <PageLoader label={t('admin.checkingAccess')} />;

  const card = (event: ListedEvent) => (
    <ModeratedEventCard
      admin={admin}
      event={event}
      price={dollarPrice(event)}
      extraActions={
        <Button variant="ghost" className="btn--sm" disabled={admin.busy !== null} aria-label={t('admin.editTitle', { title: event.title })} onClick={() => setEditing(event)}>
          {t('admin.edit')}
        </Button>
      }
    />
  );

  return (
    <div className="page">
      <header className="page-hero">
        <h1>{t('admin.scrapedTitle')}</h1>
        <p className="lead">
          <RichText id="admin.scrapedIntro" parts={{ link: <Link to={paths.admin}>{t('admin.scrapedIntroLink')}</Link> }} />
        </p>
      </header>
      <AdminEventsView admin={admin} loadingLabel={t('admin.loadingScraped')}>
        <AdminEventList title={t('admin.pendingEvents')} list={pending} empty={<RichText id="admin.noPendingScraped" parts={{ command: <code className="mono">npm run import:events -- path/to/calendar.ics</code> }} />} renderCard={card} />
        <AdminEventList title={t('admin.approvedEvents')} list={approved} empty={t('admin.noApprovedScraped')} renderCard={card} />
      </AdminEventsView>

      <dialog ref={dialogRef} className="overlay-dialog admin-dialog" aria-labelledby="scraped-edit-title" onClose={() => setEditing(null)}>
        <div className="overlay-dialog__header">
          <h2 id="scraped-edit-title">{t('admin.editEvent')}</h2>
        </div>
        {editing ? (
          <ScrapedEventForm
            key={editing._id}
            event={editing}
            saving={admin.busy?.id === editing._id && admin.busy.action === 'save'}
            onCancel={() => setEditing(null)}
            onSave={(changes) =>
              void admin.save(editing, () => updateEvent(editing._id, changes)).then((saved) => {
                if (saved) setEditing(null);
              })
            }
          />
        ) : null}
      </dialog>
    </div>
  );
}
