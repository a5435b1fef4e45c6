#!/usr/bin/env node
// `npm test`: packages/shared, the client's unit tier, the API server on PGlite, the payment service, the Daraja
// simulator and browser tests in headless Chromium; TEST_SUITES=all adds the API on PostgreSQL and the cluster (.ci/run). PostgreSQL, Redis and Chromium are found, started or installed first
// (scripts/test-services.mjs). Exits non-zero when anything fails or any test is skipped.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { stripVTControlCharacters } from 'node:util';
import path from 'node:path';
import { buildIfNeeded, root, run, runPrefixed } from './lib.mjs';
import { ensureChromium, ensureHaproxy, ensurePostgres, ensureRedis } from './test-services.mjs';

// Early checks, seconds each, before any suite starts services: the translation catalogs agree (scripts/check-catalogs.mjs).
if ((await run('node', [path.join(root, 'scripts/check-catalogs.mjs')])) !== 0) {
  console.log('[test] the translation catalogs disagree (above)');
  console.log('Tests: 0 passed, 1 failed');
  process.exit(1);
}

// Unset: the README's quick run (every suite but the PostgreSQL pass of the API suite and the cluster, which
// .ci/run adds: TEST_SUITES=all, or a list of suite-name prefixes such as `server,browser`).
const only = (process.env.TEST_SUITES ?? '').split(',').filter(Boolean);
const QUICK_RUN_LEAVES_OUT = ['server (PostgreSQL)', 'cluster'];
const wanted = (name) =>
  only.includes('all') || (only.length === 0 ? !QUICK_RUN_LEAVES_OUT.includes(name) : only.some((prefix) => name.startsWith(prefix)));
const reportDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-test-report-'));

// The server and payment suites use the real PostgreSQL and Redis in some tests, on PGlite too.
if (['server (PGlite)', 'server (PostgreSQL)', 'payment-service', 'cluster'].some(wanted)) {
  await ensurePostgres();
  await ensureRedis();
}
// The cluster suite runs several instances behind Debian's HAProxy (deploy/).
if (wanted('cluster')) ensureHaproxy();

// Suites run one after the other. TEST_LANES=2 runs the browser suite (after the client build) beside the rest,
// each line prefixed with its suite's name: measured on a quiet 2-core host it was slower, not faster (browser
// 27 min and API 31 min side by side, against 7.9 and 5.2 min one after the other; docs/decisions/test-speed.md).
const suites = [
  { name: 'shared', args: ['--root', 'packages/shared'], env: {}, lane: 0 },
  { name: 'client', args: ['--config', 'client/vitest.config.ts'], env: {}, lane: 0 },
  { name: 'server (PGlite)', args: ['--root', 'server'], env: { TEST_DB: 'pglite' }, lane: 0 },
  { name: 'server (PostgreSQL)', args: ['--root', 'server'], env: { TEST_DB: 'postgres' }, lane: 0 },
  ...(existsSync(path.join(root, 'payment-service/test'))
    ? [{ name: 'payment-service', args: ['--root', 'payment-service'], env: { TEST_DB: 'postgres' }, lane: 0 }]
    : []),
  { name: 'simulator', args: ['--root', 'simulator'], env: {}, lane: 0 },
  { name: 'cluster', args: ['--root', 'deploy'], env: {}, lane: 0 },
  { name: 'browser', args: ['--config', 'client/vitest.e2e.config.ts'], env: {}, browser: true, lane: 1 },
].filter((suite) => wanted(suite.name));
const oneLane = process.env.TEST_LANES !== '2';

if (suites.some((suite) => suite.browser)) process.env.CHROMIUM_PATH = ensureChromium();

const totals = { passed: 0, failed: 0, skipped: 0 };
const failedSuites = [];
/** What failed, one line each, repeated at the very end: CI keeps only the tail of a long log. */
const failures = [];

/** The failed tests of a vitest JSON report (and files that failed outside any test, such as a hook), as one line each. */
function failuresOf(suiteName, result) {
  const lines = [];
  const firstLine = (text) => stripVTControlCharacters(String(text ?? '')).split('\n').find((line) => line.trim()) ?? '';
  for (const file of result.testResults ?? []) {
    const where = path.relative(root, file.name ?? '');
    const failed = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failed) lines.push(`${suiteName} · ${where} · ${test.fullName}: ${firstLine(test.failureMessages?.[0]).slice(0, 300)}`);
    if (failed.length === 0 && file.status === 'failed') lines.push(`${suiteName} · ${where}: ${firstLine(file.message).slice(0, 300)}`);
  }
  return lines;
}
/**
 * Runs one suite; with another lane running, each line of its output is prefixed with the suite's name (the two
 * would interleave otherwise).
 */
async function runSuite(suite, index, prefixed) {
  console.log(`\n[test] ${suite.name}${prefixed ? ' (started beside another suite; its lines are prefixed)' : ''}`);
  const report = path.join(reportDir, `${index}.json`);
  const args = ['vitest', 'run', ...suite.args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`];
  const env = { ...process.env, ...suite.env };
  const code = prefixed ? await runPrefixed('npx', args, { env }, `[${suite.name}] `) : await run('npx', args, { env });
  let counted = false;
  if (existsSync(report)) {
    const result = JSON.parse(readFileSync(report, 'utf8'));
    totals.passed += result.numPassedTests ?? 0;
    totals.failed += result.numFailedTests ?? 0;
    totals.skipped += (result.numPendingTests ?? 0) + (result.numTodoTests ?? 0);
    counted = (result.numTotalTests ?? 0) > 0;
    failures.push(...failuresOf(suite.name, result));
  }
  if (code !== 0 || !counted) failedSuites.push(suite.name);
}

const lanes = oneLane ? [suites] : [0, 1].map((lane) => suites.filter((suite) => suite.lane === lane)).filter((lane) => lane.length > 0);
const prefixed = lanes.length > 1;
await Promise.all(
  lanes.map(async (lane) => {
    // The browser suite serves the built client: its lane builds first, while the other lane tests.
    if (lane.some((suite) => suite.browser)) {
      try {
        await buildIfNeeded();
      } catch (error) {
        console.log(`[test] ${error instanceof Error ? error.message : error}`);
        for (const suite of lane.filter((one) => one.browser)) failedSuites.push(suite.name);
        lane = lane.filter((one) => !one.browser);
      }
    }
    for (const suite of lane) await runSuite(suite, suites.indexOf(suite), prefixed);
  }),
);

console.log('');
for (const line of failures) console.log(`[test] failed: ${line}`);
if (failedSuites.length) console.log(`[test] failing suites: ${failedSuites.join(', ')}`);
if (totals.skipped) console.log('[test] skipped tests count as failures: every test must run (see README, "Tests").');
console.log(`Tests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(failedSuites.length || totals.failed || totals.skipped ? 1 : 0);
