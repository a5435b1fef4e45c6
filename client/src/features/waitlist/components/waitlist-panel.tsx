/*
 * "Waitlist" on the event page, for its organiser and admins (the route passes it into EventDetailView's
 * organiserPanels slot). Like the refunds panel, the list's code and data load only when it is opened.
 */
import { DisclosurePanel } from '../../../components/ui/disclosure-panel';
import { lazyWithTexts, useT } from '../../../lib/i18n';
import '../waitlist.css';

const WaitlistSummary = lazyWithTexts(() => import('./waitlist-summary'));

export function WaitlistPanel({ eventId }: { eventId: string }) {
  const t = useT();
  return (
    <DisclosurePanel
      title={t('waitlist.panelTitle')}
      showLabel={t('waitlist.show')}
      hideLabel={t('waitlist.hide')}
      loadingText={t('waitlist.loading')}
      className="waitlist-panel"
      headerClassName="waitlist-panel__header"
      titleClassName="waitlist-panel__title"
    >
      <WaitlistSummary eventId={eventId} />
    </DisclosurePanel>
  );
}
