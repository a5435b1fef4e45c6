import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { defaultClientConditions, defaultServerConditions, defineConfig, type ConfigEnv, type Plugin, type UserConfig } from 'vite';
import react from '@vitejs/plugin-react';
import type { Rolldown } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
// From the source: the config is loaded before (and without) the shared package's build.
import { ROUTE_SHELL_FILES } from '../packages/shared/src/client-routes.js';
import { catalogs } from './build/catalogs-plugin.js';

const gzip = promisify(zlib.gzip);

/** The browser build, not `vite build --ssr` (src/prerender.tsx) nor the dev server. */
const clientBuildOnly = (_config: UserConfig, env: ConfigEnv) => env.command === 'build' && !env.isSsrBuild;

/** Where `npm run build` puts the server-side build of src/prerender.tsx (read by the API server too). */
const PRERENDER_MODULE = 'dist-ssr/prerender.js';
const brotli = promisify(zlib.brotliCompress);

/**
 * Writes `<file>.br` and `<file>.gz` next to every text file of the build (JS, CSS, SVG, JSON, HTML),
 * compressed once at maximum level; the server sends them with Content-Encoding when the browser
 * accepts it (express-static-gzip in server/src/app.ts), so no compression runs per request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'tukio:precompress',
    apply: clientBuildOnly,
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const entries = await readdir(outDir, { recursive: true, withFileTypes: true });
      const files = entries
        .filter((entry) => entry.isFile() && /\.(js|css|svg|json|html)$/.test(entry.name))
        .map((entry) => path.join(entry.parentPath, entry.name));
      await Promise.all(
        files.map(async (file) => {
          const body = await readFile(file);
          if (body.length < 1024) return; // not worth a second request path
          const [gz, br] = await Promise.all([
            gzip(body, { level: 9 }),
            brotli(body, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
              },
            }),
          ]);
          await Promise.all([writeFile(`${file}.gz`, gz), writeFile(`${file}.br`, br)]);
        }),
      );
    },
  };
}

/**
 * Builds src/preload-route.ts as an entry of its own, adds it to index.html (async) and, as JSON
 * data, the files each lazily loaded route needs beyond what the main entry already loads.
 * (Vite merges every module script of one HTML page into one entry, which would make the
 * preloader wait for React like the rest of main.tsx's imports.)
 */
function routePreloader(): Plugin {
  const source = 'src/preload-route.ts';
  const routeModule = /[\\/]src[\\/]app[\\/]routes[\\/]([^\\/]+)\.tsx$/;
  const englishCatalog = /[\\/]src[\\/]locales[\\/]en[\\/]([^\\/]+)\.json$/;
  const kiswahiliCatalog = /[\\/]src[\\/]locales[\\/]sw[\\/]([^\\/]+)\.json$/;
  return {
    name: 'tukio:route-preloader',
    apply: clientBuildOnly,
    config(config) {
      const root = path.resolve(config.root ?? process.cwd());
      return {
        build: {
          rolldownOptions: {
            input: { index: path.join(root, 'index.html'), 'preload-route': path.join(root, source) },
          },
        },
      };
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const chunks = Object.values(context.bundle ?? {}).filter((output) => output.type === 'chunk');
        const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        /** A chunk's files: itself, its static imports (transitively) and their CSS. */
        const filesOf = (fileName: string, seen = new Set<string>()): Set<string> => {
          const chunk = byFile.get(fileName);
          if (!chunk || seen.has(fileName)) return seen;
          seen.add(fileName);
          for (const css of chunk.viteMetadata?.importedCss ?? []) seen.add(css);
          for (const imported of chunk.imports) filesOf(imported, seen);
          return seen;
        };
        const preloader = chunks.find((chunk) => chunk.isEntry && chunk.facadeModuleId?.endsWith(source));
        if (!preloader || !context.chunk) throw new Error(`${source} or the main entry was not built`);
        const loaded = new Set([...filesOf(context.chunk.fileName), ...filesOf(preloader.fileName)]);
        const routeFiles: Record<string, string[]> = {};
        /** Kiswahili catalogs: each area's file, and the areas the first load ('') and each route show. */
        const catalogFiles: { sw: Record<string, string>; areas: Record<string, string[]> } = { sw: {}, areas: {} };
        const areasOf = (files: Set<string>) => [
          ...new Set([...files].flatMap((file) => byFile.get(file)?.moduleIds.map((id) => englishCatalog.exec(id)?.[1]).filter((area) => area !== undefined) ?? [])),
        ];
        catalogFiles.areas[''] = areasOf(loaded);
        const shellChunk = chunks.find((chunk) => /[\\/]src[\\/]app[\\/]route-shell\.ts$/.test(chunk.facadeModuleId ?? ''));
        for (const chunk of chunks) {
          const kiswahiliArea = kiswahiliCatalog.exec(chunk.facadeModuleId ?? '')?.[1];
          if (kiswahiliArea) catalogFiles.sw[kiswahiliArea] = chunk.fileName;
          const name = chunk.isDynamicEntry ? routeModule.exec(chunk.facadeModuleId ?? '')?.[1] : undefined;
          if (!name) continue;
          // Starts with the route's own chunk and its own stylesheets (the server applies those to a page it renders).
          const files = filesOf(chunk.fileName);
          routeFiles[name] = [...files].filter((file) => !loaded.has(file));
          catalogFiles.areas[name] = areasOf(files);
        }
        // What paints a signed-in page's top before React (src/app/route-shell.ts), for the routes whose shell the
        // page carries: asked for first, with the route's stylesheets (client/src/preload-route.ts, server/src/lib/app-shell.ts).
        if (shellChunk) routeFiles[ROUTE_SHELL_FILES] = [...filesOf(shellChunk.fileName)].filter((file) => !loaded.has(file));
        return [
          // Data for the preloader (not executed, so the Content-Security-Policy does not apply).
          { tag: 'script', attrs: { type: 'application/json', id: 'route-files' }, children: JSON.stringify(routeFiles), injectTo: 'head' },
          { tag: 'script', attrs: { type: 'application/json', id: 'catalog-files' }, children: JSON.stringify(catalogFiles), injectTo: 'head' },
          // async: runs as soon as it has loaded, not in document order after main.tsx's module graph.
          { tag: 'script', attrs: { type: 'module', async: true, crossorigin: true, src: `/${preloader.fileName}` }, injectTo: 'head' },
        ];
      },
    },
  };
}

/** What the server-side build of src/prerender.tsx exports. */
interface PrerenderModule {
  renderAppShell: (event?: undefined, language?: 'en' | 'sw') => string;
  localizeDocument: (html: string, language: 'en' | 'sw') => string;
  SHELL_START: string;
  SHELL_END: string;
}

/**
 * Renders the app shell (header and a loading indicator, src/prerender.tsx) into index.html's
 * <div id="root">, so a page paints before React has loaded. Needs the SSR build of
 * src/prerender.tsx, which `npm run build` makes first. Also writes index.sw.html, the same page
 * in Kiswahili, which the server sends to a Kiswahili reader (no English flash, no layout shift).
 */
function prerenderShell(): Plugin {
  let root = process.cwd();
  const loadPrerender = async () => (await import(pathToFileURL(path.join(root, PRERENDER_MODULE)).href)) as PrerenderModule;
  const emptyRoot = '<div id="root"></div>';
  return {
    name: 'tukio:prerender-shell',
    apply: clientBuildOnly,
    configResolved(config) {
      root = config.root;
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html) {
        const prerender = await loadPrerender();
        if (!html.includes(emptyRoot)) throw new Error(`index.html has no ${emptyRoot}`);
        return html.replace(emptyRoot, () => `<div id="root">${prerender.SHELL_START}${prerender.renderAppShell()}${prerender.SHELL_END}</div>`);
      },
    },
    generateBundle: {
      order: 'post',
      async handler(_options, bundle) {
        const index = bundle['index.html'];
        if (index?.type !== 'asset') return;
        const prerender = await loadPrerender();
        const html = String(index.source);
        const start = html.indexOf(prerender.SHELL_START) + prerender.SHELL_START.length;
        const end = html.indexOf(prerender.SHELL_END, start);
        const kiswahili = html.slice(0, start) + prerender.renderAppShell(undefined, 'sw') + html.slice(end);
        this.emitFile({ type: 'asset', fileName: 'index.sw.html', source: prerender.localizeDocument(kiswahili, 'sw') });
      },
    },
  };
}

/**
 * The web app manifest and the service worker (src/service-worker/sw.ts, docs/decisions/offline.md),
 * browser build only. The worker is registered by src/features/pwa after the page has loaded, so it
 * costs the first load nothing; its precache skips the heavy page-specific libraries (mobile data is
 * dear), which it keeps once a page uses them.
 */
function offlineApp(): Plugin[] {
  return VitePWA({
    strategies: 'injectManifest',
    srcDir: 'src/service-worker',
    filename: 'sw.ts',
    injectRegister: false,
    registerType: 'prompt',
    manifest: {
      id: '/',
      name: 'Tukio: events in Kenya',
      short_name: 'Tukio',
      description: 'Discover, plan and attend events across Kenya. Your tickets open offline.',
      lang: 'en',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      theme_color: '#14171a',
      background_color: '#14171a',
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
      ],
    },
    injectManifest: {
      globPatterns: ['index.html', 'index.sw.html', 'assets/*.{js,css}', 'favicon.svg', 'event-placeholder.svg', 'icons/icon-192.png'],
      // Page-specific heavyweights (chat's emoji picker, the map, the QR decoder, the dashboard's charts): cached on first use instead.
      globIgnores: ['assets/emoji-picker-*', 'assets/location-map-*', 'assets/jsQR-*', 'assets/uPlot*'],
      // Hashed file names need no revision: their URL changes with their content.
      dontCacheBustURLsMatching: /^assets\//,
    },
  });
}

/**
 * `BUILD_ID` (e.g. the commit a deploy builds) as `<meta name="tukio-build">`: says which build a page
 * runs, and makes a rebuild of the same sources a new version for the service worker.
 */
function buildId(): Plugin {
  const id = process.env.BUILD_ID?.trim();
  return {
    name: 'tukio:build-id',
    apply: clientBuildOnly,
    transformIndexHtml: () => (id ? [{ tag: 'meta', attrs: { name: 'tukio-build', content: id }, injectTo: 'head' }] : []),
  };
}

/**
 * Names the shared chunk of our own route code (see `codeSplitting` below): a module of src/ that no entry
 * loads statically, i.e. one only lazily loaded routes reach. Modules the first load runs stay where they are,
 * so the home page's first load does not grow.
 */
function routeSharedCode(moduleId: string, context: Rolldown.ChunkingContext): string | null {
  if (!/[\\/]client[\\/]src[\\/]/.test(moduleId) || moduleId.includes('node_modules')) return null;
  return loadedAtStart(moduleId, context, new Set()) ? null : 'route-shared';
}

/**
 * True when some chain of static imports leads from an entry (main.tsx, the route preloader) to the module, or
 * from what the preloader loads on demand (src/app/route-shell.ts, through src/app/route-code-gate.ts): that must not wait for React's code.
 */
function loadedAtStart(moduleId: string, context: Rolldown.ChunkingContext, seen: Set<string>): boolean {
  if (seen.has(moduleId)) return false;
  seen.add(moduleId);
  const info = context.getModuleInfo(moduleId);
  if (!info) return false;
  if (info.isEntry || info.dynamicImporters.some((importer) => /[\\/]src[\\/](?:preload-route|app[\\/]route-code-gate)\.ts$/.test(importer))) return true;
  return info.importers.some((importer) => loadedAtStart(importer, context, seen));
}

const API_TARGET = 'http://localhost:5000';

const proxy = {
  '/api': { target: API_TARGET, changeOrigin: true },
  '/uploads': { target: API_TARGET, changeOrigin: true },
  // The payment service, which the API server forwards (server/src/modules/payment-proxy).
  '/pay': { target: API_TARGET, changeOrigin: false },
  '/simulator': { target: API_TARGET, changeOrigin: false },
  '/socket.io': { target: API_TARGET, changeOrigin: true, ws: true },
};

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [catalogs(), react(), routePreloader(), prerenderShell(), precompress(), buildId(), ...(isSsrBuild ? [] : offlineApp())],
  resolve: {
    // @tukio/shared (limits, phone format) is bundled from its TypeScript source: its package.json's
    // "@tukio/source" export condition, which typecheck and the services' tests name too. Only its
    // browser-safe entries may be imported here: ESLint refuses '@tukio/shared/node/*' in client code.
    conditions: ['@tukio/source', ...defaultClientConditions],
    alias: [
      // The default react-toastify entry injects its CSS from JS at runtime. Point every
      // `import ... from 'react-toastify'` at the (otherwise identical) unstyled build so there is
      // a single toast store, and load the stylesheet once as a real CSS file (src/main.tsx).
      { find: /^react-toastify$/, replacement: 'react-toastify/unstyled' },
    ],
  },
  ssr: { resolve: { conditions: ['@tukio/source', ...defaultServerConditions] } },
  server: {
    port: 5173,
    proxy,
  },
  preview: {
    port: 4173,
    proxy,
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // public/ belongs to the browser build only.
    copyPublicDir: !isSsrBuild,
    sourcemap: false,
    // Every browser the build targets supports <link rel="modulepreload">; skip the polyfill.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // Long-lived vendor chunks for the libraries every page needs. Page-specific libraries
        // (leaflet, emoji-picker-react, qrcode.react, socket.io-client) are deliberately NOT listed:
        // they stay inside the lazily loaded route chunks that import them.
        codeSplitting: {
          groups: [
            {
              name: 'react-vendor',
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|cookie)[\\/]/,
              priority: 20,
            },
            {
              // Not on the home route's first load: only route chunks import the API client.
              name: 'axios',
              test: /[\\/]node_modules[\\/]axios[\\/]/,
              priority: 10,
            },
            {
              // The translation runtime, the formatters, the texts every page shows and the event image: all
              // on the first load anyway, one file instead of several small ones (docs/decisions/languages.md).
              name: 'i18n',
              // (The renderer itself is @tukio/shared/messages, shared with the API server's mail, and amounts
              // are @tukio/shared/shillings, as the mails write them.)
              test: /[\\/](?:src[\\/](?:lib[\\/](?:i18n[\\/](?:index|runtime|messages|react)\.tsx?|format\.ts)|locales[\\/]en[\\/]common\.json|components[\\/]event-image\.tsx)|packages[\\/]shared[\\/]src[\\/](?:messages|shillings)\.ts)$/,
              priority: 15,
              // Only these modules: their dependencies (language.ts, the session store) are shared with the
              // route preloader, which must not wait for this chunk (nor React).
              includeDependenciesRecursively: false,
            },
            // react-toastify (+ clsx) is not grouped: it stays in the chunk src/lib/notify.ts
            // imports on the first toast.
            {
              // Our own code that several routes share but the first load does not run (the API client, the
              // paged list, form fields, dialogs...): one file instead of a dozen of 1-6 KB. A browser asks one
              // server (HTTP/1.1) over six connections at a time, so each extra file on a route's first load is
              // a wait of its own (Lighthouse on /profile: 22 files of the route before its first render).
              name: routeSharedCode,
              minShareCount: 2,
              priority: 5,
              // Not the modules they import: those the first load runs must stay out of this file.
              includeDependenciesRecursively: false,
            },

          ],
        },
      },
    },
  },
}));
