#!/usr/bin/env node
// `npm test`: every suite — server API on PGlite (and on PostgreSQL when TEST_DATABASE_URL is set),
// the payment service, and browser tests in headless Chromium. Exits non-zero when anything fails.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildIfNeeded, root, run } from './lib.mjs';

const only = (process.env.TEST_SUITES ?? '').split(',').filter(Boolean);
const wanted = (name) => only.length === 0 || only.some((prefix) => name.startsWith(prefix));
const reportDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-test-report-'));

function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
  return candidates.find((candidate) => candidate && existsSync(candidate));
}

async function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error('Browser tests need Chromium: run `sudo apt-get install -y chromium` (or set CHROMIUM_PATH) and try again.');
    process.exit(1);
  }
  console.log('[test] installing Debian chromium for the browser tests…');
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  const installed = findChromium();
  if (!installed) {
    console.error('Chromium could not be installed; install it with `apt-get install -y chromium`.');
    process.exit(1);
  }
  return installed;
}

const suites = [
  { name: 'server (PGlite)', args: ['--root', 'server'], env: { TEST_DB: 'pglite' } },
  ...(process.env.TEST_DATABASE_URL
    ? [{ name: 'server (PostgreSQL)', args: ['--root', 'server'], env: { TEST_DB: 'postgres' } }]
    : []),
  ...(existsSync(path.join(root, 'payment-service/test'))
    ? [{ name: 'payment-service', args: ['--root', 'payment-service'], env: { TEST_DB: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite' } }]
    : []),
  { name: 'browser', args: ['--config', 'client/vitest.e2e.config.ts'], env: {}, browser: true },
].filter((suite) => wanted(suite.name));

if (suites.some((suite) => suite.browser)) {
  process.env.CHROMIUM_PATH = await ensureChromium();
  await buildIfNeeded();
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const failedSuites = [];
for (const [index, suite] of suites.entries()) {
  console.log(`\n[test] ${suite.name}`);
  const report = path.join(reportDir, `${index}.json`);
  const code = await run('npx', ['vitest', 'run', ...suite.args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], {
    env: { ...process.env, ...suite.env },
  });
  let counted = false;
  if (existsSync(report)) {
    const result = JSON.parse(readFileSync(report, 'utf8'));
    totals.passed += result.numPassedTests ?? 0;
    totals.failed += result.numFailedTests ?? 0;
    totals.skipped += (result.numPendingTests ?? 0) + (result.numTodoTests ?? 0);
    counted = (result.numTotalTests ?? 0) > 0;
  }
  if (code !== 0 || !counted) failedSuites.push(suite.name);
}

console.log('');
if (failedSuites.length) console.log(`[test] failing suites: ${failedSuites.join(', ')}`);
console.log(`Tests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(failedSuites.length || totals.failed ? 1 : 0);
