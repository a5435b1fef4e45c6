import { useDocumentTitle } from '../../../hooks/use-document-title';
import { useT } from '../../../lib/i18n';
import { PayoutBalancesSection } from './payout-balances-section';
import '../payouts.css';

/**
 * /payouts/organisers/:organiserId: an organiser's payouts as a finance member for all their events reads them
 * (docs/decisions/teams.md): the balances and each event's statement only. Where the money goes, early payouts,
 * integrations and the team stay on the organiser's own /payouts; the server refuses anyone else.
 */
export function OrganiserPayoutsPage({ organiserId, organiserName }: { organiserId: string; organiserName?: string }) {
  const t = useT();
  useDocumentTitle(t('payouts.organiserPageTitle'));
  return (
    <div className="page page--narrow payouts-page">
      <header className="page-hero">
        <h1>{t('payouts.organiserPageTitle')}</h1>
        <p className="lead">{organiserName ? t('payouts.organiserPageLeadNamed', { organiser: organiserName }) : t('payouts.organiserPageLead')}</p>
        <p className="muted" role="note">
          {t('payouts.organiserReadOnly')}
        </p>
      </header>
      <PayoutBalancesSection organiserId={organiserId} />
    </div>
  );
}
