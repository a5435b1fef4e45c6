#!/usr/bin/env node
// `npm start`: builds what is stale, then runs the API (+ client) and the payment service together, and, when no
// Daraja credentials are set, the Daraja simulator (simulator/) in a process of its own: the payment service
// talks to it as to Safaricom (DARAJA_BASE_URL, its public app credentials and certificate), and the API server
// serves its phone pages at /simulator on the one public port.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { pathToFileURL } from 'node:url';
import { buildIfNeeded, darajaSimulatorUrl, loadDotEnv, root, usesDarajaSimulator } from './lib.mjs';

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
const simulatorEntry = path.join(root, 'simulator/dist/index.js');
const withSimulator = usesDarajaSimulator() && existsSync(simulatorEntry);

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

const children = [];

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

function launch(name, entry) {
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
  children.push(child);
  return child;
}

/** Polls the simulator until it answers (its certificate), or fails when it stopped or 30 s went by. */
async function simulatorCertificate(url, child) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      const response = await fetch(`${url}/simulator/certificate.pem`);
      if (response.ok) return await response.text();
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the Daraja simulator did not answer at ${url}`);
}

if (withSimulator) {
  const url = darajaSimulatorUrl();
  process.env.SIMULATOR_PORT ??= new URL(url).port;
  // Its callbacks go to this payment service only; its page links, printed at start, through the API server.
  process.env.SIMULATOR_CALLBACK_ORIGINS ??= `http://127.0.0.1:${process.env.PAYMENT_PORT || 27684}`;
  process.env.SIMULATOR_PUBLIC_URL ??= process.env.PUBLIC_URL || `http://localhost:${process.env.PORT || 5000}`;
  const child = launch('daraja-simulator', simulatorEntry);
  try {
    const certificate = await simulatorCertificate(url, child);
    const { paymentServiceEnv } = await import(pathToFileURL(path.join(root, 'simulator/dist/payment-service-env.js')).href);
    Object.assign(process.env, paymentServiceEnv(url, certificate, path.join(process.env.DATA_DIR, 'daraja-simulator.pem')), { DARAJA_SIMULATOR_URL: url });
  } catch (error) {
    console.error(`[tukio] ${error.message}`);
    stop('SIGTERM', 1);
  }
}
if (!stopping) for (const [name, entry] of services) launch(name, entry);
