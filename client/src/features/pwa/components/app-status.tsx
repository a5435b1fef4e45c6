/*
 * Two notices at the top of every page: "offline" while the browser has no connection (saved pages and
 * tickets still open), and "a new version is ready" once an update has installed, with a button that
 * reloads into it. Nothing is rendered otherwise.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { useOnline } from '../../../hooks/use-online';
import { applyUpdate, isUpdateWaiting, registerServiceWorker, subscribeUpdate } from '../lib/service-worker';
import '../pwa.css';

export function AppStatus() {
  const online = useOnline();
  const updateReady = useSyncExternalStore(subscribeUpdate, isUpdateWaiting, () => false);

  useEffect(() => {
    registerServiceWorker();
  }, []);

  return (
    <div className="app-status" role="status" aria-live="polite">
      {online ? null : (
        <p className="app-status__bar app-status__bar--offline">
          <strong>You are offline.</strong> Pages you opened and your tickets still work; anything else waits for the connection.
        </p>
      )}
      {updateReady ? (
        <p className="app-status__bar app-status__bar--update">
          <span>A new version of Tukio is ready.</span>
          <button type="button" className="app-status__action" onClick={applyUpdate}>
            Reload to update
          </button>
        </p>
      ) : null}
    </div>
  );
}
