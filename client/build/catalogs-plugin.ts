import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
// The config is bundled by Vite before @tukio/shared may be built: its source, by path.
import { compileCatalog as compileMessages } from '../../packages/shared/src/compile-messages.js';

/*
 * The build side of the app's translations (docs/decisions/languages.md):
 *   1. Catalogs (src/locales/<language>/<area>.json, flat key → ICU MessageFormat) are compiled to
 *      Lingui's message format, so the browser ships no MessageFormat parser.
 *   2. A source module whose string literals name an area's key ('events.getTicket', `tickets.x.${y}`)
 *      gets that area's English catalog imported and registered (src/lib/i18n/runtime.ts) before its
 *      code runs: English travels with the code that shows it (a route chunk carries its own texts,
 *      the home page only the ones it uses), and no page can render a key whose catalog is missing.
 *   3. Each Kiswahili catalog is a file of its own, fetched only by a Kiswahili reader (a lazy
 *      import.meta.glob in src/lib/i18n/kiswahili.ts).
 */

const CATALOG_FILE = /[\\/]src[\\/]locales[\\/](?:en|sw)[\\/][a-z][a-z0-9-]*\.json$/;
/** App source that may use keys: not the catalogs, the runtime itself or the service worker. */
const SOURCE_FILE = /[\\/]src[\\/](?!locales[\\/]|lib[\\/]i18n[\\/]|service-worker[\\/]).+\.tsx?$/;
/** The start of a string literal that begins with '<area>.<letter>'. */
const KEY_LITERAL = /[`'"]([a-z][a-z0-9-]*)\.[A-Za-z]/g;

/** A catalog file's text, compiled as the API server compiles its own (@tukio/shared/compile-messages). */
export function compileCatalog(source: string, file: string): Record<string, unknown> {
  return compileMessages(JSON.parse(source) as Record<string, unknown>, file);
}

export function catalogs(): Plugin {
  let localesDir = '';
  let runtimeModule = '';
  const known = new Map<string, boolean>();
  const isArea = (area: string) => {
    let exists = known.get(area);
    if (exists === undefined) {
      exists = existsSync(path.join(localesDir, 'en', `${area}.json`));
      known.set(area, exists);
    }
    return exists;
  };
  return {
    name: 'tukio:catalogs',
    enforce: 'pre',
    configResolved(config) {
      localesDir = path.join(config.root, 'src', 'locales');
      runtimeModule = path.join(config.root, 'src', 'lib', 'i18n', 'runtime.ts');
    },
    buildStart() {
      known.clear();
    },
    transform(code, id) {
      const file = id.split('?')[0]!;
      if (CATALOG_FILE.test(file)) {
        this.addWatchFile(file);
        return { code: JSON.stringify(compileCatalog(code, file)), map: null };
      }
      if (!SOURCE_FILE.test(file)) return null;
      const areas = new Set<string>();
      for (const match of code.matchAll(KEY_LITERAL)) if (isArea(match[1]!)) areas.add(match[1]!);
      if (areas.size === 0) return null;
      // One line in front of the module's first one, so its line numbers stay as they are.
      const names = [...areas].map((area, index) => ({ area, name: `__tukioTexts${index}` }));
      const prefix =
        `import { registerCatalog as __tukioRegisterCatalog } from ${JSON.stringify(runtimeModule)};` +
        names.map(({ area, name }) => `import ${name} from ${JSON.stringify(path.join(localesDir, 'en', `${area}.json`))};`).join('') +
        names.map(({ area, name }) => `__tukioRegisterCatalog(${JSON.stringify(area)}, ${name});`).join('');
      return { code: prefix + code, map: null };
    },
  };
}
