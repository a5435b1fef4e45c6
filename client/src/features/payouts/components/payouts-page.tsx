import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../../hooks/use-document-title';
import { useT } from '../../../lib/i18n';
import { IntegrationsSection } from './integrations-section';
import { PayoutBalancesSection } from './payout-balances-section';
import { PayoutDestinationSection } from './payout-destination-section';
import '../payouts.css';

/**
 * /payouts: an organiser's payouts, one section per concern: the balances (with each event's statement), then
 * where to be paid, then integrations (API keys and webhooks); `team` is the teams feature's section (filled by the route).
 */
export function PayoutsPage({ team }: { team?: ReactNode }) {
  const t = useT();
  useDocumentTitle(t('payouts.pageTitle'));
  return (
    <div className="page page--narrow payouts-page">
      <header className="page-hero">
        <h1>{t('payouts.pageTitle')}</h1>
        <p className="lead">{t('payouts.pageLead')}</p>
      </header>
      <PayoutBalancesSection />
      <PayoutDestinationSection />
      {team}
      <IntegrationsSection />
    </div>
  );
}
