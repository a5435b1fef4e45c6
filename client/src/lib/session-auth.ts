/*
 * What the HTTP client (./api-client) does when a call that carried a bearer token answers 401. It
 * imports this module only when that happens (the client is on the home route's first load, this
 * module and ./notify are not).
 */
import { getLanguage, t } from './i18n/runtime';
import { notify } from './notify';
import { clearSession, getBearer } from './session-store';

/*
 * Why the last session ended, when a moderator's suspension or ban ended it: kept for the tab
 * (sessionStorage) so the login page can go on saying it, until when and why, after the toast is gone.
 * The server's failure body is kept as it came (code, params, msg), so the text follows the language.
 * (Here rather than in a module of its own: one more chunk would weigh on the home page's first load.)
 */
const ENDED_SESSION_KEY = 'tukio-session-ended';

export function rememberEndedSession(body: unknown): void {
  try {
    sessionStorage.setItem(ENDED_SESSION_KEY, JSON.stringify(body));
  } catch {
    // Storage refused (private mode, full): the toast alone says it.
  }
}

/** The failure body that ended the session, or null. */
export function readEndedSession(): unknown {
  try {
    const raw = sessionStorage.getItem(ENDED_SESSION_KEY);
    return raw ? (JSON.parse(raw) as unknown) : null;
  } catch {
    return null;
  }
}

export function forgetEndedSession(): void {
  try {
    sessionStorage.removeItem(ENDED_SESSION_KEY);
  } catch {
    // nothing kept
  }
}

/**
 * The server's words in English, the errors catalog's (filled with its params) in Kiswahili: what ./errors
 * `failureMessage` does, written out here because importing ./errors into this lazily loaded module splits it
 * out of the home page's first load into a chunk of its own (more bytes there).
 */
function restrictionText(code: string, body: { msg?: unknown; params?: Record<string, string> }): string {
  const english = typeof body.msg === 'string' && body.msg !== '' ? body.msg : t('ui.sessionExpired');
  if (getLanguage() === 'en') return english;
  const translated = t(`errors.${code}`, body.params);
  return translated === `errors.${code}` ? english : translated;
}

/** The 401 codes of a session ended by a suspension or ban (their message says until when and why). */
const RESTRICTION_CODES = new Set(['session_ended_suspended', 'session_ended_banned']);

/**
 * A call that sent `sent` as its Authorization header answered 401 with `body` (callers skip this for
 * `skipSessionReset` calls). Only a call made with the *current* token ends the session, so a
 * stale request cannot log out a freshly signed-in user. A session a moderator's suspension or ban
 * ended says so (until when, Nairobi time, and the reason) instead of "Your session has expired".
 */
export function handleUnauthorized(sent: unknown, body?: unknown): void {
  const current = getBearer();
  if (typeof sent === 'string' && current && sent === current) {
    const code = typeof body === 'object' && body !== null ? (body as { code?: unknown }).code : undefined;
    const restricted = typeof code === 'string' && RESTRICTION_CODES.has(code);
    // Kept before the session goes, so a page that reacts to the signed-out state already knows why.
    if (restricted) rememberEndedSession(body);
    clearSession();
    if (!restricted) {
      notify.error(t('ui.sessionExpired'), { toastId: 'session-expired' });
      return;
    }
    notify.error(restrictionText(code, body as { msg?: unknown; params?: Record<string, string> }), { toastId: 'session-expired' });
  }
}
