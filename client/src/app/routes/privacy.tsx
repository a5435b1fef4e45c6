/* PRIVACY (/privacy): the privacy notice, its numbers from GET /api/privacy (the settings the server runs with). */
import { Link } from 'react-router-dom';
import { Button } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useT } from '../../lib/i18n';
import { usePrivacySettings, type PrivacyProcessor } from '../../hooks/use-privacy-settings';
import '../../features/about/about.css';

const PROCESSOR_TEXT = {
  safaricom: 'privacy.processorSafaricom',
  'africas-talking': 'privacy.processorAfricasTalking',
  'mail-provider': 'privacy.processorMailProvider',
} as const satisfies Record<PrivacyProcessor['id'], string>;

export default function PrivacyRoute() {
  const t = useT();
  useDocumentTitle(t('privacy.pageTitle'));
  const settings = usePrivacySettings();
  const data = settings.data;
  return (
    <div className="page about privacy">
      <header className="page-hero">
        <p className="eyebrow">{t('privacy.eyebrow')}</p>
        <h1>{t('privacy.title')}</h1>
        <p className="lead">{t('privacy.lead')}</p>
      </header>

      <section className="about__section" aria-labelledby="privacy-kept">
        <h2 id="privacy-kept">{t('privacy.keptTitle')}</h2>
        <ul>
          <li>{t('privacy.keptAccount')}</li>
          <li>{t('privacy.keptOrders')}</li>
          <li>{t('privacy.keptTickets')}</li>
          <li>{t('privacy.keptMessages')}</li>
        </ul>
      </section>

      {!data ? (
        <section className="about__section" aria-live="polite">
          {settings.isError ? (
            <>
              <p role="alert">{t('privacy.failed')}</p>
              <Button variant="secondary" onClick={() => void settings.refetch()}>
                {t('privacy.retry')}
              </Button>
            </>
          ) : (
            <p>{t('privacy.loading')}</p>
          )}
        </section>
      ) : (
        <>
          <section className="about__section" aria-labelledby="privacy-how-long">
            <h2 id="privacy-how-long">{t('privacy.howLongTitle')}</h2>
            <ul>
              <li data-testid="privacy-retention">{t('privacy.retention', { days: data.retentionDays })}</li>
              <li>{t('privacy.retentionKept')}</li>
              <li>{t('privacy.mailKept', { days: data.mailKeepDays })}</li>
              <li>{t('privacy.deletionGrace', { days: data.deletionGraceDays })}</li>
            </ul>
          </section>

          <section className="about__section" aria-labelledby="privacy-processors">
            <h2 id="privacy-processors">{t('privacy.processorsTitle')}</h2>
            <p>{t('privacy.processorsLead')}</p>
            <ul>
              {data.processors.map((processor) => (
                <li key={processor.id}>{t(PROCESSOR_TEXT[processor.id], { name: processor.name })}</li>
              ))}
            </ul>
            <p>{t('privacy.processorsNoSale')}</p>
          </section>

          <section className="about__section" aria-labelledby="privacy-rights">
            <h2 id="privacy-rights">{t('privacy.rightsTitle')}</h2>
            <ul>
              <li>{t('privacy.rightsExport', { hours: data.dataExportLinkHours, interval: data.dataExportIntervalHours })}</li>
              <li>{t('privacy.rightsSms')}</li>
              <li>
                {t('privacy.rightsContact')} <Link to={paths.contact}>{t('privacy.contactLink')}</Link>
              </li>
            </ul>
          </section>
        </>
      )}
    </div>
  );
}
