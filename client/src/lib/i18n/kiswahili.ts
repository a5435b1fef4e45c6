/*
 * Fetches Kiswahili catalogs (loaded by ./runtime for a Kiswahili reader only: English readers never
 * download this). Each area's catalog is a file of its own, which the build lists in index.html
 * (<script id="catalog-files">, data) and the service worker precaches for offline use.
 */
import type { Messages } from './messages';

/** Where a fetched catalog goes (./runtime's addKiswahiliCatalog: passed in, so this file does not import the runtime back). */
type AddCatalog = (area: string, messages: Messages) => void;

let files: Record<string, string | undefined> | undefined;

function catalogUrl(area: string): string | undefined {
  if (import.meta.env.DEV) return `/src/locales/sw/${area}.json?import`; // the dev server's module form of a JSON file
  try {
    files ??= (JSON.parse(document.getElementById('catalog-files')?.textContent ?? '{}') as { sw?: Record<string, string> }).sw ?? {};
  } catch {
    files = {};
  }
  const file = files[area];
  return file ? `/${file}` : undefined;
}

const loads = new Map<string, Promise<void>>();

function loadCatalog(area: string, add: AddCatalog): Promise<void> {
  let load = loads.get(area);
  if (load) return load;
  const url = catalogUrl(area);
  load = (url ? (import(/* @vite-ignore */ url) as Promise<{ default: Messages }>) : Promise.resolve({ default: {} }))
    .then((module) => add(area, module.default))
    .catch((error: unknown) => {
      loads.delete(area); // offline and not cached yet: a later page tries again
      console.warn(`Kiswahili texts for "${area}" could not be loaded`, error);
    });
  loads.set(area, load);
  return load;
}

export function loadKiswahiliCatalogs(areas: readonly string[], add: AddCatalog): Promise<void> {
  return Promise.all(areas.map((area) => loadCatalog(area, add))).then(() => undefined);
}
