/*
 * Two notices at the top of every page: "offline" while the browser has no connection (saved pages and
 * tickets still open), and "a new version is ready" once an update has installed, with a button that
 * reloads into it. Nothing is rendered otherwise.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { useOnline } from '../../../hooks/use-online';
import { useT } from '../../../lib/i18n';
import { applyUpdate, isUpdateWaiting, registerServiceWorker, subscribeUpdate } from '../lib/service-worker';
import '../pwa.css';

export function AppStatus() {
  const t = useT();
  const online = useOnline();
  const updateReady = useSyncExternalStore(subscribeUpdate, isUpdateWaiting, () => false);

  useEffect(() => {
    registerServiceWorker();
  }, []);

  return (
    <div className="app-status" role="status" aria-live="polite">
      {online ? null : (
        <p className="app-status__bar app-status__bar--offline">
          <strong>{t('pwa.offline')}</strong> {t('pwa.offlineDetail')}
        </p>
      )}
      {updateReady ? (
        <p className="app-status__bar app-status__bar--update">
          <span>{t('pwa.updateReady')}</span>
          <button type="button" className="app-status__action" onClick={applyUpdate}>
            {t('pwa.reloadToUpdate')}
          </button>
        </p>
      ) : null}
    </div>
  );
}
