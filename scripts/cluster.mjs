#!/usr/bin/env node
// `npm run cluster`: builds what is stale (as `npm start` does), then runs several API and payment-service
// instances behind HAProxy on this machine (deploy/src/cli.ts; its options after `--`).
import path from 'node:path';
import { buildIfNeeded, loadDotEnv, root, run } from './lib.mjs';

loadDotEnv();
try {
  await buildIfNeeded();
} catch (error) {
  console.error(`[cluster] ${error.message}`);
  process.exit(1);
}
process.exit(await run(process.execPath, ['--import', 'tsx', path.join(root, 'deploy/src/cli.ts'), ...process.argv.slice(2)]));
