/**
 * The API reads a signed-in page makes on its first render, which src/preload-route.ts starts
 * before React has loaded (src/lib/early-reads.ts). An answer is handed to the `api.get` of the
 * same path, so each path here must be exactly the one the page's API function asks for
 * (client/e2e/first-load-and-session.test.ts checks that each is asked for once, and that no
 * second request follows). Keep this free of React: it runs before React has loaded.
 */
import { startEarlyRead } from '../lib/early-reads';
import { getSessionSnapshot } from '../lib/session-store';
import type { RouteMatch } from './route-match';

const seg = (value: string) => encodeURIComponent(value);

export function startRouteEarlyReads({ routeFile, params }: RouteMatch): void {
  const { token, user, isLoggedIn, isAvatarImageSet } = getSessionSnapshot();
  if (!token || !user || !isLoggedIn) return;
  const authorization = `Bearer ${token}`;
  // A signed-in user without an avatar is sent to choose one: the profile would not be shown.
  if (routeFile === 'profile' && isAvatarImageSet) {
    // app/routes/profile.tsx: features/profile (user, events, reports), features/tickets, lib/blocks-api.
    for (const path of [`/auth/user/${seg(user._id)}`, '/tickets/mine/paged', `/events/user/${seg(user._id)}/paged`, '/messages/blocks', '/moderation/reports/mine']) {
      startEarlyRead(path, authorization);
    }
  }
  if (routeFile === 'forum-thread' && params.threadId) {
    // features/community/api/forums-api.ts: the thread's first page of posts, then its event (who may post).
    void startEarlyRead(`/forums/thread/${seg(params.threadId)}/posts`, authorization).then((answer) => {
      const eventId = answer.ok ? eventOfThread(answer.text) : null;
      if (eventId) startEarlyRead(`/events/${seg(eventId)}`, authorization);
    }, () => undefined);
  }
}

function eventOfThread(text: string): string | null {
  try {
    const event: unknown = (JSON.parse(text) as { thread?: { event?: unknown } }).thread?.event;
    return typeof event === 'string' && event !== '' ? event : null;
  } catch {
    return null;
  }
}
