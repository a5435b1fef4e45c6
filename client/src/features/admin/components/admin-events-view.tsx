import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { FormMessage } from '../../../components/ui/form-message';
import { PageLoader } from '../../../components/ui/spinner';
import { useT } from '../../../lib/i18n';
import type { ListedEvent } from '../../../types/api';
import type { useAdminEvents } from '../hooks/use-admin-events';
import { AdminEventCard } from './admin-event-card';

type AdminEvents = ReturnType<typeof useAdminEvents>;

/** The admin pages' body: a loader, then the lists (`children`), or the failure with Try again. */
export function AdminEventsView({
  admin,
  loadingLabel,
  children,
}: {
  admin: AdminEvents;
  loadingLabel: string;
  children: ReactNode;
}) {
  const t = useT();
  if (admin.loading) return <PageLoader label={loadingLabel} />;
  if (admin.error) {
    return (
      <div className="button-row">
        <FormMessage tone="error">{t('admin.loadFailed')}</FormMessage>
        <Button variant="secondary" onClick={admin.reload}>
          {t('admin.tryAgain')}
        </Button>
      </div>
    );
  }
  return <>{children}</>;
}

/** An admin card whose Approve, Disapprove and Delete run the page's actions, one at a time. */
export function ModeratedEventCard({
  admin,
  event,
  price,
  extraActions,
}: {
  admin: AdminEvents;
  event: ListedEvent;
  price: string;
  extraActions?: ReactNode;
}) {
  return (
    <AdminEventCard
      event={event}
      price={price}
      busy={admin.busy?.id === event._id ? admin.busy.action : null}
      locked={admin.busy !== null}
      onApprove={() => void admin.approve(event)}
      onDisapprove={() => void admin.disapprove(event)}
      onDelete={() => void admin.remove(event)}
      extraActions={extraActions}
    />
  );
}
