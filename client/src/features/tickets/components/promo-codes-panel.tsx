/*
 * "Promo codes" on the event page, for its organiser and admins (the route passes it into EventDetailView's
 * organiserPanels slot, like the waitlist panel): the codes' code and data load only when it is opened.
 */
import { lazy } from 'react';
import { DisclosurePanel } from '../../../components/ui/disclosure-panel';
import '../ticket-order.css';

const PromoCodesManager = lazy(() => import('./promo-codes-manager'));

export function PromoCodesPanel({ eventId }: { eventId: string }) {
  return (
    <DisclosurePanel
      title="Promo codes"
      showLabel="Show promo codes"
      hideLabel="Hide promo codes"
      loadingText="Loading the promo codes…"
      className="event-manage promo-panel"
      headerClassName="promo-panel__header"
      titleClassName="event-manage__title"
    >
      <PromoCodesManager eventId={eventId} />
    </DisclosurePanel>
  );
}
