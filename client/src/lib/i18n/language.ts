/* Which language the app speaks, without any translation code. */
import { isLanguage, pickLanguage, type Language } from '@tukio/shared/languages';

export { isLanguage, LANGUAGES, type Language } from '@tukio/shared/languages';

/** localStorage key of the device's choice (kept by the chat's "clear all storage" logout via the cookie below). */
export const LANGUAGE_STORAGE_KEY = 'tukio-language';
/**
 * Cookie with the same value: the server reads it to send the app shell already in this language
 * (no English flash before the app has loaded), and it survives a localStorage.clear().
 */
export const LANGUAGE_COOKIE = 'lang';
const COOKIE_MAX_AGE_SECONDS = 60 * 60 * 24 * 400; // the longest browsers keep a cookie

/** The language chosen on this device with the header's switch, if any (the cookie is only its mirror). */
export function readStored(): Language | null {
  try {
    const stored = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    if (isLanguage(stored)) return stored;
  } catch {
    /* storage unavailable */
  }
  return null;
}

function readCookie(): Language | null {
  const cookie = new RegExp(`(?:^|;\\s*)${LANGUAGE_COOKIE}=(en|sw)(?:;|$)`).exec(document.cookie)?.[1];
  return isLanguage(cookie) ? cookie : null;
}

/** `?lang=en|sw` in the page's address: the ticket widget's frame says the host page's language this way (widget.js). */
function readAddress(): Language | null {
  const asked = new URLSearchParams(window.location.search).get('lang');
  return isLanguage(asked) ? asked : null;
}

/**
 * The address's `?lang=` (the ticket widget's frame), else the device's choice, else the cookie (kept when the
 * chat's logout clears storage), else the browser's preferences.
 */
export function initialLanguage(): Language {
  if (typeof window === 'undefined') return 'en';
  return readAddress() ?? readStored() ?? readCookie() ?? pickLanguage(navigator.languages ?? [navigator.language]);
}

/** Remembers `language` on this device and says it to the document (<html lang>) and the server (cookie). */
export function applyLanguage(language: Language, remember: boolean): void {
  if (typeof window === 'undefined') return;
  document.documentElement.lang = language;
  document.cookie = `${LANGUAGE_COOKIE}=${language}; path=/; max-age=${COOKIE_MAX_AGE_SECONDS}; SameSite=Lax`;
  if (!remember) return;
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    /* the cookie still remembers it */
  }
}
