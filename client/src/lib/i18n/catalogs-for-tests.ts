import { addKiswahiliCatalog, changeLanguage, registerCatalog } from './runtime';
import type { Language } from './language';
import type { Messages } from './messages';

/**
 * For the unit tier only: the catalogs plugin (client/vitest.config.ts) compiles a catalog as it is imported and
 * registers English for the app code that names its keys; a test registers the areas it reads in both languages
 * (English too, for code the plugin does not instrument, such as src/lib/i18n) before switching languages.
 */
export async function loadCatalogsForTests(...areas: string[]): Promise<void> {
  for (const area of areas) {
    const [english, kiswahili] = await Promise.all([
      import(`../../locales/en/${area}.json`) as Promise<{ default: Messages }>,
      import(`../../locales/sw/${area}.json`) as Promise<{ default: Messages }>,
    ]);
    registerCatalog(area, english.default);
    addKiswahiliCatalog(area, kiswahili.default);
  }
}

/** Switches the reader's language without remembering it on the (test) device. */
export const switchLanguageForTests = (language: Language): Promise<void> => changeLanguage(language, false);
