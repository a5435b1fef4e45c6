/*
 * Fetches Kiswahili catalogs (loaded by ./runtime for a Kiswahili reader only: English readers never
 * download this). Each area's catalog is a file of its own, which the service worker precaches for
 * offline use.
 */
import type { Messages } from './messages';

/** Where a fetched catalog goes (./runtime's addKiswahiliCatalog: passed in, so this file does not import the runtime back). */
type AddCatalog = (area: string, messages: Messages) => void;

/** Each area's catalog, a file of its own, by path (src/locales/sw/<area>.json). */
const catalogFiles = import.meta.glob<Messages>('../../locales/sw/*.json', { import: 'default' });

const loads = new Map<string, Promise<void>>();

function loadCatalog(area: string, add: AddCatalog): Promise<void> {
  let load = loads.get(area);
  if (load) return load;
  const file = catalogFiles[`../../locales/sw/${area}.json`];
  load = (file ? file() : Promise.resolve({}))
    .then((messages) => add(area, messages))
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
