#!/usr/bin/env node
// `npm start`: builds what is stale, then runs the API (+ client) and the payment service together.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
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

/**
 * The services write JSON lines (pino) for log collectors. A person watching `npm start` in a terminal reads
 * them as `[name] message` instead; piped to a file or a collector, the lines pass through untouched.
 */
const readable = Boolean(process.stdout.isTTY);

function humanLine(line) {
  let entry;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  if (!entry || typeof entry.msg !== 'string') return line;
  const error = entry.err?.message ? `: ${entry.err.message}` : '';
  const request = entry.requestId ? ` (request ${entry.requestId})` : '';
  return `[${entry.name ?? 'tukio'}] ${entry.msg}${error}${request}`;
}

function relay(from, to) {
  readline.createInterface({ input: from, crlfDelay: Infinity }).on('line', (line) => to.write(`${humanLine(line)}\n`));
}

const children = services.map(([name, entry]) => {
  const child = spawn(process.execPath, [entry], { stdio: readable ? ['inherit', 'pipe', 'pipe'] : 'inherit', env: process.env });
  if (readable) {
    relay(child.stdout, process.stdout);
    relay(child.stderr, process.stderr);
  }
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
