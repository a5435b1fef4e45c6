/**
 * Which route module (file name in ./routes) renders a pathname, for src/preload-route.ts.
 * Mirrors the route table of ./router.tsx; '/' is Home, which is part of the entry.
 * Keep this free of React: it runs before React has loaded.
 */
import { paths, routePatterns } from '../config/paths';

const table: Array<[pattern: string, routeFile: string]> = [
  [paths.events, 'events'],
  [routePatterns.event, 'event-detail'],
  [routePatterns.eventDashboard, 'event-dashboard'],
  [paths.plan, 'plan'],
  [paths.login, 'login'],
  [paths.register, 'register'],
  [paths.setAvatar, 'set-avatar'],
  [paths.profile, 'profile'],
  [paths.chat, 'chat'],
  [paths.contact, 'contact'],
  [paths.about, 'about'],
  [paths.forgotPassword, 'forgot-password'],
  [routePatterns.resetPassword, 'reset-password'],
  [routePatterns.verifyEmail, 'verify-email'],
  [routePatterns.forums, 'forum-threads'],
  [routePatterns.forumThread, 'forum-thread'],
  [routePatterns.editEvent, 'edit-event'],
  [paths.admin, 'admin'],
  [paths.adminScraped, 'admin-scraped'],
  [routePatterns.checkin, 'checkin'],
  [routePatterns.guestTickets, 'guest-tickets'],
];

const segments = (path: string) => path.split('/').filter(Boolean);

export interface RouteMatch {
  routeFile: string;
  /** The `:param` segments, decoded as React Router's useParams gives them. */
  params: Record<string, string>;
}

/**
 * React Router's rules for these simple patterns: `:param` is one non-empty segment, matching is
 * case-insensitive and a trailing slash is ignored. null for '/', 'not-found' when nothing matches.
 */
export function matchRoute(pathname: string): RouteMatch | null {
  const parts = segments(pathname);
  if (parts.length === 0) return null;
  for (const [pattern, routeFile] of table) {
    const expected = segments(pattern);
    if (expected.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const matches = expected.every((part, index) => {
      const actual = parts[index] ?? '';
      if (!part.startsWith(':')) return part.toLowerCase() === actual.toLowerCase();
      params[part.slice(1)] = safeDecode(actual);
      return true;
    });
    if (matches) return { routeFile, params };
  }
  return { routeFile: 'not-found', params: {} };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
