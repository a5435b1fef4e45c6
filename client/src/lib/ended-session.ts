/*
 * Why the last session ended, when a moderator's suspension or ban ended it (./session-auth): kept for the
 * tab (sessionStorage) so the login page can go on saying it, until when and why, after the toast is gone.
 * The server's failure body is kept as it came (code, params, msg), so the text follows the language.
 */
const KEY = 'tukio-session-ended';

export function rememberEndedSession(body: unknown): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(body));
  } catch {
    // Storage refused (private mode, full): the toast alone says it.
  }
}

/** The failure body that ended the session, or null. */
export function readEndedSession(): unknown {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as unknown) : null;
  } catch {
    return null;
  }
}

export function forgetEndedSession(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // nothing kept
  }
}
