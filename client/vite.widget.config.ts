import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

/*
 * The ticket widget's script, dist/widget.js (src/widget/widget.ts, docs/decisions/widget.md): one classic
 * script (IIFE, no module, no chunks) that any website loads with a plain <script src>. Built after the app
 * (`npm run build`), into the same dist/ without emptying it; the API server sends it at /widget.js.
 */

/** What a host page may be asked to load, gzip: the build fails above it. */
export const WIDGET_GZIP_LIMIT_BYTES = 30 * 1024;

/** Fails the build when widget.js is over WIDGET_GZIP_LIMIT_BYTES gzip, and says its size. */
export function widgetSizeLimit(limit = WIDGET_GZIP_LIMIT_BYTES): Plugin {
  return {
    name: 'tukio:widget-size-limit',
    generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type !== 'chunk') continue;
        const gzip = zlib.gzipSync(file.code, { level: 9 }).length;
        if (gzip > limit) this.error(`${file.fileName} is ${gzip} bytes gzip, over the widget's limit of ${limit} bytes`);
        this.info(`${file.fileName}: ${file.code.length} bytes, ${gzip} bytes gzip (limit ${limit})`);
      }
    },
  };
}

export default defineConfig({
  plugins: [widgetSizeLimit()],
  publicDir: false,
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    copyPublicDir: false,
    sourcemap: false,
    // Host pages run old browsers too; the script uses nothing newer than these.
    target: 'es2019',
    lib: {
      entry: 'src/widget/widget.ts',
      formats: ['iife'],
      name: 'TukioWidget',
      fileName: () => 'widget.js',
    },
  },
});
