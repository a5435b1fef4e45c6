import { useT } from '../../../lib/i18n';
import type { MaskedDestination } from '../api/payout-account-api';

/** A destination in words, as the organiser recognises it ("M-Pesa 0712 ••• 678", "Paybill 247247, account ••••1234"). */
export function DestinationText({ destination }: { destination: MaskedDestination }) {
  const t = useT();
  switch (destination.method) {
    case 'mpesa':
      return <>{t('payouts.destinationMpesa', { phone: destination.phone ?? '' })}</>;
    case 'paybill':
      return <>{t('payouts.destinationPaybill', { shortcode: destination.shortcode ?? '', account: destination.accountReference ?? '' })}</>;
    case 'till':
      return <>{t('payouts.destinationTill', { shortcode: destination.shortcode ?? '' })}</>;
  }
}
