// @vitest-environment node
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { build } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import widgetConfig, { WIDGET_GZIP_LIMIT_BYTES, widgetSizeLimit } from '../../vite.widget.config';

/*
 * widget.js as `npm run build` makes it (client/vite.widget.config.ts): one classic script that stays under
 * the 30 KB gzip a host page may be asked to load, and a build that fails when it does not.
 */

const clientRoot = path.resolve(import.meta.dirname, '../..');
const outDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-widget-build-'));

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

const buildWidget = (plugins = widgetConfig.plugins) =>
  build({ ...widgetConfig, plugins, root: clientRoot, configFile: false, logLevel: 'silent', build: { ...widgetConfig.build, outDir } });

describe('the widget build', () => {
  it('makes one classic script of at most 30 KB gzip, with no import and no module syntax', async () => {
    await buildWidget();
    const code = readFileSync(path.join(outDir, 'widget.js'), 'utf8');
    const gzip = zlib.gzipSync(code, { level: 9 }).length;
    expect(WIDGET_GZIP_LIMIT_BYTES).toBe(30 * 1024);
    expect(gzip).toBeLessThanOrEqual(WIDGET_GZIP_LIMIT_BYTES);
    expect(code).not.toMatch(/\bimport\s*[({"'`]|\bexport\s/);
    expect(code).toContain('/embed/events/');
  }, 60_000);

  it('fails when the script is over the limit', async () => {
    await expect(buildWidget([widgetSizeLimit(100)])).rejects.toThrow(/over the widget's limit of 100 bytes/);
  }, 60_000);
});
