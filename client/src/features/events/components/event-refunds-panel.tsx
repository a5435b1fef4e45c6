/*
 * "Refunds" on the event page, for its organiser and admins: shown before and after a cancellation (the
 * organiser tools go away with the event, the money going back does not). The summary's code and data load
 * only when it is opened, so nobody else downloads them.
 */
import { DisclosurePanel } from '../../../components/ui/disclosure-panel';
import { lazyWithTexts, useT } from '../../../lib/i18n';

const EventRefundsSummary = lazyWithTexts(() => import('./event-refunds-summary'));

export function EventRefundsPanel({ eventId, eventStatus }: { eventId: string; eventStatus: string }) {
  const t = useT();
  return (
    <DisclosurePanel
      title={t('events.refunds')}
      showLabel={t('events.showRefunds')}
      hideLabel={t('events.hideRefunds')}
      loadingText={t('events.loadingRefunds')}
      className="event-manage event-refunds"
      headerClassName="event-refunds__header"
      titleClassName="event-manage__title"
    >
      {/* The status is part of the key: what a cancellation just changed is read again. */}
      <EventRefundsSummary eventId={eventId} eventStatus={eventStatus} />
    </DisclosurePanel>
  );
}
