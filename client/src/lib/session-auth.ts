/*
 * What both HTTP paths (the lazily loaded axios client in ./api-client and `fetch` in ./public-get)
 * do when a call that carried a bearer token answers 401. One function, so the two paths cannot
 * drift apart. ./public-get imports this module only when that happens (it is on the home route's
 * first load, this module and ./notify are not).
 */
import { t } from './i18n';
import { notify } from './notify';
import { clearSession, getBearer } from './session-store';

/**
 * A call that sent `sent` as its Authorization header answered 401 (callers skip this for
 * `skipSessionReset` calls). Only a call made with the *current* token ends the session, so a
 * stale request cannot log out a freshly signed-in user.
 */
export function handleUnauthorized(sent: unknown): void {
  const current = getBearer();
  if (typeof sent === 'string' && current && sent === current) {
    clearSession();
    notify.error(t('ui.sessionExpired'), { toastId: 'session-expired' });
  }
}
