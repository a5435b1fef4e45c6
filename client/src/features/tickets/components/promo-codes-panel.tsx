/*
 * "Promo codes" on the event page, for its organiser and admins (the route passes it into EventDetailView's
 * organiserPanels slot, like the waitlist panel): the codes' code and data load only when it is opened.
 */
import { DisclosurePanel } from '../../../components/ui/disclosure-panel';
import '../ticket-order.css';
import { lazyWithTexts, useT } from '../../../lib/i18n';

const PromoCodesManager = lazyWithTexts(() => import('./promo-codes-manager'));

export function PromoCodesPanel({ eventId }: { eventId: string }) {
  const t = useT();
  return (
    <DisclosurePanel
      title={t('tickets.promoCodes')}
      showLabel={t('tickets.showPromoCodes')}
      hideLabel={t('tickets.hidePromoCodes')}
      loadingText={t('tickets.loadingPromoCodes')}
      className="event-manage promo-panel"
      headerClassName="promo-panel__header"
      titleClassName="event-manage__title"
    >
      <PromoCodesManager eventId={eventId} />
    </DisclosurePanel>
  );
}
