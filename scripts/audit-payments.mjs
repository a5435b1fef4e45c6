#!/usr/bin/env node
// `npm run audit:payments [-- --ledger <url> | --journal <dir>]`: the same .env and DATA_DIR as `npm start`, then
// the payment service's audit (built JS when it is up to date, else the TypeScript source through tsx).
// Prints `N discrepancies` and exits 1 when there is any.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { buildTargets, darajaSimulatorUrl, loadDotEnv, needsBuild, root, run, sourceFlags, usesDarajaSimulator } from './lib.mjs';

loadDotEnv();
process.env.DATA_DIR = path.resolve(root, process.env.DATA_DIR ?? 'data');
if (usesDarajaSimulator()) {
  // As `npm start` configures the payment service: the simulator's ledger is M-Pesa's side of the books.
  const credentials = JSON.parse(readFileSync(path.join(root, 'simulator/src/credentials.json'), 'utf8'));
  Object.assign(process.env, {
    DARAJA_SIMULATOR: 'true',
    DARAJA_BASE_URL: darajaSimulatorUrl(),
    DARAJA_CONSUMER_KEY: credentials.consumerKey,
    DARAJA_CONSUMER_SECRET: credentials.consumerSecret,
    DARAJA_SHORTCODE: credentials.shortcode,
    DARAJA_PASSKEY: credentials.passkey,
  });
}

const built = path.join(root, 'payment-service/dist/scripts/audit-payments.js');
const shared = buildTargets.find(([workspace]) => workspace === 'packages/shared');
const command = existsSync(built) && !needsBuild('payment-service', 'dist/scripts/audit-payments.js', ['src']) && !needsBuild(...shared)
  ? [built]
  : [...sourceFlags, path.join(root, 'payment-service/src/scripts/audit-payments.ts')];
process.exit(await run(process.execPath, [...command, ...process.argv.slice(2)]));
