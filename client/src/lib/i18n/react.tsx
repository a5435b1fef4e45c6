import { lazy, useCallback, useSyncExternalStore, type ComponentType, type LazyExoticComponent } from 'react';
import type { Language } from './language';
import { catalogsReady, changeLanguage, getLanguage, subscribeToTexts, t, textsVersion, type TranslationValues } from './runtime';

export type Translate = (key: string, values?: TranslationValues) => string;

/** Re-renders the caller when the language changes or a catalog arrives. */
function useTextsVersion(): number {
  return useSyncExternalStore(subscribeToTexts, textsVersion, textsVersion);
}

/** `const t = useT(); t('events.getTicket')`: the current language's text; the component re-renders on a switch. */
export function useT(): Translate {
  const version = useTextsVersion();
  // A new function per version, so memoised children and effects that list `t` see the change.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `version` is the point
  return useCallback((key: string, values?: TranslationValues) => t(key, values), [version]);
}

/** The current language and a switch (which also saves it on the device and, when signed in, on the account). */
export function useLanguage(): { language: Language; setLanguage: (language: Language) => Promise<void> } {
  useTextsVersion();
  return { language: getLanguage(), setLanguage: changeLanguage };
}

/** A lazily loaded component that can be asked for ahead of its first render. */
export type PreloadableComponent<T extends ComponentType<any>> = LazyExoticComponent<T> & { preload(): Promise<void> };

/**
 * React.lazy for a component whose module uses its own areas' texts: resolves once the current
 * language's catalogs of the areas it registered are here, so the Suspense fallback stays instead
 * of the component flashing English texts to a Kiswahili reader.
 *
 * `preload()` loads it ahead (src/main.tsx does for the page the tab opens on). Once loaded, React gets it
 * synchronously (a thenable that answers at once): the first render shows the page itself instead of
 * committing the Suspense fallback first and the page a moment later.
 */
export function lazyWithTexts<T extends ComponentType<any>>(load: () => Promise<{ default: T }>): PreloadableComponent<T> {
  let loaded: { default: T } | undefined;
  let loading: Promise<{ default: T }> | undefined;
  const preload = () =>
    (loading ??= load().then(
      async (module) => {
        await catalogsReady();
        loaded = module;
        return module;
      },
      (error: unknown) => {
        // A failed download may be tried again (the next render, a retry after the network is back).
        loading = undefined;
        throw error;
      },
    ));
  const component = lazy(() => (loaded ? ({ then: (resolve: (module: { default: T }) => void) => resolve(loaded!) } as unknown as Promise<{ default: T }>) : preload()));
  return Object.assign(component, { preload: () => preload().then(() => undefined) });
}
