import zlib from 'node:zlib';
import { defaultClientConditions, defaultServerConditions, defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import type { Rolldown } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { catalogs } from './build/catalogs-plugin.js';

/**
 * Writes `<file>.br` and `<file>.gz` next to every text file of the build (JS, CSS, SVG, JSON, HTML) of 1 KB or
 * more, compressed once at maximum level; the server sends them with Content-Encoding when the browser accepts
 * it (express-static-gzip in server/src/app.ts), so no compression runs per request.
 */
const precompress = () =>
  compression({
    include: /\.(?:js|css|svg|json|html)$/,
    threshold: 1024,
    algorithms: [defineAlgorithm('gzip', { level: 9 }), defineAlgorithm('brotliCompress', { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } })],
    logLevel: 'silent',
  });

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
      globPatterns: ['index.html', 'assets/*.{js,css}', 'favicon.svg', 'event-placeholder.svg', 'icons/icon-192.png'],
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
    apply: 'build',
    transformIndexHtml: () => (id ? [{ tag: 'meta', attrs: { name: 'tukio-build', content: id }, injectTo: 'head' }] : []),
  };
}

/** 'route-shared' for a module of src/ that no chain of static imports from the entry reaches (see codeSplitting). */
function routeSharedCode(moduleId: string, context: Rolldown.ChunkingContext): string | null {
  if (!/[\\/]client[\\/]src[\\/]/.test(moduleId) || moduleId.includes('node_modules')) return null;
  const seen = new Set<string>();
  const loadedAtStart = (id: string): boolean => {
    if (seen.has(id)) return false;
    seen.add(id);
    const info = context.getModuleInfo(id);
    return Boolean(info && (info.isEntry || info.importers.some(loadedAtStart)));
  };
  return loadedAtStart(moduleId) ? null : 'route-shared';
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
  plugins: [catalogs(), react(), buildId(), ...(isSsrBuild ? [] : [precompress(), ...offlineApp()])],
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
    // dist/.vite/manifest.json: which stylesheets the event page's chunk has, which the API server applies to the
    // event page it renders (server/src/modules/events/event-page.ts).
    manifest: !isSsrBuild,
    // Every browser the build targets supports <link rel="modulepreload">; skip the polyfill.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // Long-lived vendor chunks for the libraries every page needs. Page-specific libraries
        // (leaflet, emoji-picker-react, qrcode.react, socket.io-client) are deliberately NOT listed:
        // they stay inside the lazily loaded route chunks that import them.
        // (The server-side build of src/prerender.tsx is one module for Node: no chunks to tune.)
        codeSplitting: isSsrBuild ? false : {
          groups: [
            {
              name: 'react-vendor',
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|cookie|@tanstack)[\\/]/,
              priority: 20,
            },
            // react-toastify (+ clsx) is not grouped: it stays in the chunk src/lib/notify.ts
            // imports on the first toast.
            {
              // The small modules of the first load that the routes share too (translations, formatters, the HTTP
              // client, the session, paths): one file instead of a dozen, each a wait of its own.
              name: 'app',
              test: /[\\/](?:src[\\/](?:lib[\\/](?:i18n[\\/](?:index|runtime|messages|react|language)|format|api-client|session-store)|config[\\/](?:paths|env)|locales[\\/]en[\\/]common|components[\\/]event-image)|packages[\\/]shared[\\/]src[\\/](?:messages|shillings|languages))\.(?:tsx?|json)$/,
              priority: 15,
              // Only these modules, not what they import.
              includeDependenciesRecursively: false,
            },
            {
              // Our own code that several routes share but the first load does not run (form fields, dialogs...):
              // one file instead of a dozen of 1-6 KB.
              name: routeSharedCode,
              debugName: 'route-shared',
              minShareCount: 2,
              priority: 5,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
}));
