/**
 * Which route module (a file in client/src/app/routes) renders a pathname, for the API server: it names the
 * module's files (from the client build's manifest) in the page it sends, so the browser asks for them with
 * the page itself. Mirrors the route table of client/src/app/router.tsx; '/' (Home) is part of the client's
 * entry and has no row.
 */
export const CLIENT_ROUTES: ReadonlyArray<readonly [pattern: string, routeFile: string]> = [
  ['/events', 'events'],
  ['/events/:id', 'event-detail'],
  ['/events/:id/dashboard', 'event-dashboard'],
  ['/plan', 'plan'],
  ['/login', 'login'],
  ['/register', 'register'],
  ['/setAvatar', 'set-avatar'],
  ['/profile', 'profile'],
  ['/chat', 'chat'],
  ['/contact', 'contact'],
  ['/about', 'about'],
  ['/privacy', 'privacy'],
  ['/forgot-password', 'forgot-password'],
  ['/reset-password/:token', 'reset-password'],
  ['/verify/:token', 'verify-email'],
  ['/forums/:eventId', 'forum-threads'],
  ['/forum/:threadId', 'forum-thread'],
  ['/edit-event/:id', 'edit-event'],
  ['/admin', 'admin'],
  ['/admpst', 'admin-scraped'],
  ['/checkin/:eventId', 'checkin'],
  ['/t/:token', 'guest-tickets'],
  // The ticket widget's page, framed by organisers' websites (widget.js, docs/decisions/widget.md).
  ['/embed/events/:id', 'embed-event'],
  ['/my-data/:token', 'data-export'],
  ['/delete-account/undo/:token', 'delete-account-undo'],
  ['/delete-account/:token', 'delete-account'],
];

export interface ClientRouteMatch {
  routeFile: string;
  /** The `:param` segments, decoded as React Router's useParams gives them. */
  params: Record<string, string>;
}

const segments = (path: string) => path.split('/').filter(Boolean);

/**
 * React Router's rules for these simple patterns: `:param` is one non-empty segment, matching is
 * case-insensitive and a trailing slash is ignored. null for '/', 'not-found' when nothing matches.
 */
export function matchClientRoute(pathname: string): ClientRouteMatch | null {
  const parts = segments(pathname);
  if (parts.length === 0) return null;
  for (const [pattern, routeFile] of CLIENT_ROUTES) {
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
