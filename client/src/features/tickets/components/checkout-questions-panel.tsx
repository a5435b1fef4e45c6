/*
 * "Checkout questions" on the event page, for its organiser and admins (beside the promo codes panel): the editor
 * and its data load only when it is opened.
 */
import { DisclosurePanel } from '../../../components/ui/disclosure-panel';
import '../ticket-order.css';
import { lazyWithTexts, useT } from '../../../lib/i18n';

const CheckoutQuestionsManager = lazyWithTexts(() => import('./checkout-questions-manager'));

export function CheckoutQuestionsPanel({ eventId }: { eventId: string }) {
  const t = useT();
  return (
    <DisclosurePanel
      title={t('tickets.cqTitle')}
      showLabel={t('tickets.cqShow')}
      hideLabel={t('tickets.cqHide')}
      loadingText={t('tickets.cqLoading')}
      className="event-manage promo-panel"
      headerClassName="promo-panel__header"
      titleClassName="event-manage__title"
    >
      <CheckoutQuestionsManager eventId={eventId} />
    </DisclosurePanel>
  );
}
