#!/usr/bin/env node
// `npm run cluster`: builds what is stale (as `npm start` does), then runs several API and payment-service
// instances behind HAProxy on this machine (deploy/src/cli.ts; its options after `--`).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { buildIfNeeded, loadDotEnv, root } from './lib.mjs';

loadDotEnv();
try {
  await buildIfNeeded();
} catch (error) {
  console.error(`[cluster] ${error.message}`);
  process.exit(1);
}
const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'deploy/src/cli.ts'), ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
// A stop sent to this process alone (a supervisor's SIGTERM, not Ctrl-C to the terminal's group) stops the cluster too.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
