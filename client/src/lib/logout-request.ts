import { api } from './api-client';

/** Best-effort server-side logout; the local session is cleared regardless. */
export function logoutRequest(token: string): void {
  api
    .post('/auth/logout', null, {
      headers: { Authorization: `Bearer ${token}` },
      skipSessionReset: true,
    })
    .catch(() => undefined);
}
