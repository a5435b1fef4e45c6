#!/usr/bin/env node
// `npm start`: builds what is stale, then runs the API (+ client) and the payment service together.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildIfNeeded, loadDotEnv, root } from './lib.mjs';

loadDotEnv();
process.env.NODE_ENV ??= 'production';
process.env.DATA_DIR = path.resolve(root, process.env.DATA_DIR ?? 'data');

try {
  await buildIfNeeded();
} catch (error) {
  console.error(`[tukio] ${error.message}`);
  process.exit(1);
}

const services = [
  ['api', path.join(root, 'server/dist/index.js')],
  ['payments', path.join(root, 'payment-service/dist/index.js')],
].filter(([, entry]) => existsSync(entry));

const children = services.map(([name, entry]) => {
  const child = spawn(process.execPath, [entry], { stdio: 'inherit', env: process.env });
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`[tukio] ${name} stopped (${signal ?? code}); stopping the rest`);
    stop('SIGTERM', code ?? 1);
  });
  return child;
});

let stopping = false;
function stop(signal, exitCode = 0) {
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill(signal);
  let pending = children.filter((child) => child.exitCode === null).length;
  if (pending === 0) process.exit(exitCode);
  for (const child of children) {
    child.once('exit', () => {
      pending -= 1;
      if (pending === 0) process.exit(exitCode);
    });
  }
  setTimeout(() => process.exit(exitCode || 1), 12_000).unref();
}

process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGTERM'));
