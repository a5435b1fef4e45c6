import { compileCatalog } from '@tukio/shared/compile-messages';
import { addKiswahiliCatalog, changeLanguage, registerCatalog } from './runtime';
import type { Language } from './language';

/**
 * For the unit tier only: Vitest runs without the build's catalogs plugin, so a test registers the areas its
 * code reads (English and Kiswahili, compiled as the build compiles them) before switching languages.
 */
export async function loadCatalogsForTests(...areas: string[]): Promise<void> {
  for (const area of areas) {
    const [english, kiswahili] = await Promise.all([
      import(`../../locales/en/${area}.json`) as Promise<{ default: Record<string, string> }>,
      import(`../../locales/sw/${area}.json`) as Promise<{ default: Record<string, string> }>,
    ]);
    registerCatalog(area, compileCatalog(english.default, `en/${area}.json`));
    addKiswahiliCatalog(area, compileCatalog(kiswahili.default, `sw/${area}.json`));
  }
}

/** Switches the reader's language without remembering it on the (test) device. */
export const switchLanguageForTests = (language: Language): Promise<void> => changeLanguage(language, false);
