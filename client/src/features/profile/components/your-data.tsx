/*
 * PROFILE › "Your data" (docs/decisions/data-rights.md): ask for a copy of everything Tukio holds about you. The
 * server builds a ZIP in the background and emails a link that works once, for 24 hours; one request a day.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { PrivacyLink } from '../../../components/privacy-link';
import { getErrorResponse, getErrorStatus, getServerMessage } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { useT } from '../../../lib/i18n';
import { getDataExportStatus, requestDataExport, type DataExportStatus } from '../api/profile-api';
import { DeleteAccount } from './delete-account';
import { SmsPromotionsToggle } from './sms-promotions-toggle';

/** While the ZIP is being made, the state is looked at again this often (it flips to "ready" when mailed). */
const REQUESTED_POLL_MS = 5000;

export function YourData({ userId }: { userId: string }) {
  const t = useT();
  const queryClient = useQueryClient();
  const queryKey = ['data-export', userId];
  const status = useQuery({
    queryKey,
    queryFn: ({ signal }) => getDataExportStatus(signal),
    refetchInterval: (query) => (query.state.data?.state === 'requested' ? REQUESTED_POLL_MS : false),
  });
  const [asking, setAsking] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const ask = async () => {
    setAsking(true);
    setFailure(null);
    try {
      queryClient.setQueryData<DataExportStatus>(queryKey, await requestDataExport());
    } catch (error) {
      if (getErrorStatus(error) === 429) {
        // Asked less than a day ago (another tab, another device): the answer says from when.
        const next = (getErrorResponse(error)?.data as { nextRequestAt?: string } | undefined)?.nextRequestAt;
        if (next) queryClient.setQueryData<DataExportStatus>(queryKey, (current) => (current ? { ...current, nextRequestAt: next } : current));
        void status.refetch();
      }
      setFailure(getServerMessage(error) ?? t('profile.dataExportFailed'));
    } finally {
      setAsking(false);
    }
  };

  const data = status.data;
  const stateLine = (() => {
    if (!data) return null;
    switch (data.state) {
      case 'requested':
        return t('profile.dataExportRequested');
      case 'ready':
        return t('profile.dataExportReady', { until: formatDateTime(data.expiresAt) });
      case 'downloaded':
        return t('profile.dataExportDownloaded');
      case 'expired':
        return t('profile.dataExportExpired');
      default:
        return null;
    }
  })();

  return (
    <section className="profile-section" aria-labelledby="your-data-heading">
      <div className="profile-section__header">
        <h2 id="your-data-heading">{t('profile.yourData')}</h2>
      </div>
      <div className="card your-data">
        <p>{t('profile.dataExportIntro')}</p>
        {status.isLoading && <p className="muted">{t('profile.dataExportLoading')}</p>}
        {status.error && !data && (
          <p role="alert">
            {t('profile.dataExportLoadFailed')}{' '}
            <Button variant="ghost" className="btn--sm" onClick={() => void status.refetch()}>
              {t('profile.dataExportRetry')}
            </Button>
          </p>
        )}
        {stateLine && (
          <p role="status" className="your-data__state">
            {stateLine}
          </p>
        )}
        {data?.nextRequestAt && <p className="muted">{t('profile.dataExportNext', { when: formatDateTime(data.nextRequestAt) })}</p>}
        {failure && !data?.nextRequestAt && (
          <p role="alert" className="form-message form-message--error">
            {failure}
          </p>
        )}
        <Button variant="secondary" loading={asking} loadingText={t('profile.dataExportAsking')} disabled={status.isLoading || Boolean(data?.nextRequestAt)} onClick={() => void ask()}>
          {t('profile.dataExportButton')}
        </Button>
        <DeleteAccount userId={userId} />
      </div>
      <div className="card your-data">
        <SmsPromotionsToggle userId={userId} />
        <PrivacyLink />
      </div>
    </section>
  );
}
