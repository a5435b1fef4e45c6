/*
 * The translation runtime: the areas' catalogs and the current language.
 *
 * Catalogs (src/locales/<language>/<area>.json, ICU MessageFormat) are compiled by the build with
 * Lingui's compiler (client/build/catalogs-plugin.ts) and rendered by ./messages. A module that names a
 * key such as 'events.getTicket' gets the English catalog of its area bundled with it, registered when
 * the module runs (the plugin adds that import): English costs no request and a page carries only the
 * areas it uses. Kiswahili catalogs are files of their own, fetched by ./kiswahili (itself loaded only
 * for a Kiswahili reader): every registered area's once Kiswahili is chosen, and each newly registered
 * area's while it is the language. docs/decisions/languages.md.
 */
import { applyLanguage, initialLanguage, type Language } from './language';
import { renderMessage, type Messages, type TranslationValues } from './messages';

export type { TranslationValues };

/** The compiled messages of every area loaded so far, per language. */
const catalogs: Record<Language, Messages> = { en: {}, sw: {} };
const englishAreas = new Set<string>();
/** Areas registered without English texts (the server's error messages: English comes from the server). */
const fallbackAreas = new Set<string>();
const kiswahiliAreas = new Set<string>();

let language: Language = initialLanguage();
let version = 0;
const listeners = new Set<() => void>();

function changed(): void {
  version += 1;
  for (const listener of listeners) listener();
}

/** Fetches the Kiswahili catalogs of `areas` not here yet; never fails (a missing text falls back to English). */
function loadKiswahili(areas: Iterable<string>): Promise<void> {
  const missing = [...areas].filter((area) => !kiswahiliAreas.has(area));
  if (missing.length === 0) return Promise.resolve();
  return import('./kiswahili').then(({ loadKiswahiliCatalogs }) => loadKiswahiliCatalogs(missing, addKiswahiliCatalog)).catch(() => undefined);
}

/** Called by ./kiswahili (and src/prerender.tsx, which has every catalog) with an area's Kiswahili texts. */
export function addKiswahiliCatalog(area: string, messages: Messages): void {
  Object.assign(catalogs.sw, messages);
  kiswahiliAreas.add(area);
  if (language === 'sw') changed();
}

/** Called by the code the build adds to every module that uses an area's keys. */
export function registerCatalog(area: string, messages: Messages): void {
  if (englishAreas.has(area) || fallbackAreas.has(area)) return;
  (Object.keys(messages).length > 0 ? englishAreas : fallbackAreas).add(area);
  Object.assign(catalogs.en, messages);
  if (language === 'sw') void loadKiswahili([area]);
}

/**
 * Resolves once the current language's texts for every area registered so far are here. Areas
 * registered without English texts (see registerCatalog) load meanwhile but are not waited for: a
 * page shows no such text until something fails, and then the server's English stands in.
 */
export function catalogsReady(): Promise<void> {
  if (language === 'en') return Promise.resolve();
  void loadKiswahili(fallbackAreas);
  return loadKiswahili(englishAreas);
}

export function getLanguage(): Language {
  return language;
}

/**
 * Switches the language once its texts are here (the page keeps the old language meanwhile, no
 * mixture), remembers it on the device and tells the document and the server (the account: ./account-language).
 */
export async function changeLanguage(next: Language, remember = true): Promise<void> {
  applyLanguage(next, remember);
  if (next === language) return;
  if (next === 'sw') {
    void loadKiswahili(fallbackAreas);
    await loadKiswahili(englishAreas);
  }
  language = next;
  changed();
}

/** For React's useSyncExternalStore: a number that changes whenever texts or the language do. */
export function subscribeToTexts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
export const textsVersion = () => version;

const reported = new Set<string>();

/**
 * The text of `key` in the current language, with `values` put into its placeholders. A key the
 * Kiswahili catalog lacks falls back to English; a key no catalog has is returned as it is.
 */
export function t(key: string, values?: TranslationValues): string {
  const message = catalogs[language][key] ?? catalogs.en[key];
  if (message !== undefined) return renderMessage(message, values, language);
  // A fallback area's miss is expected (its English is the server's); any other is a catalog bug.
  if (!reported.has(key) && !fallbackAreas.has(key.slice(0, key.indexOf('.')))) {
    reported.add(key);
    console.warn(`[i18n] missing ${key}`);
  }
  return key;
}

/** For src/prerender.tsx only (the server has every catalog): the renders that follow are in `next`. */
export function setServerRenderLanguage(next: Language): void {
  language = next;
}
