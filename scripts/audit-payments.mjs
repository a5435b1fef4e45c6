#!/usr/bin/env node
// `npm run audit:payments [-- --ledger <url> | --journal <dir>]`: the same .env and DATA_DIR as `npm start`, then
// the payment service's audit (built JS when it is up to date, else the TypeScript source through tsx).
// Prints `N discrepancies` and exits 1 when there is any.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildTargets, loadDotEnv, needsBuild, root, run, sourceFlags } from './lib.mjs';

loadDotEnv();
process.env.DATA_DIR = path.resolve(root, process.env.DATA_DIR ?? 'data');

const built = path.join(root, 'payment-service/dist/scripts/audit-payments.js');
const shared = buildTargets.find(([workspace]) => workspace === 'packages/shared');
const command = existsSync(built) && !needsBuild('payment-service', 'dist/scripts/audit-payments.js', ['src']) && !needsBuild(...shared)
  ? [built]
  : [...sourceFlags, path.join(root, 'payment-service/src/scripts/audit-payments.ts')];
process.exit(await run(process.execPath, [...command, ...process.argv.slice(2)]));
