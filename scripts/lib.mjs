import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Runs a command with inherited output; resolves with its exit code. */
export function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', cwd: root, ...options });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', () => resolve(127));
  });
}

/** Runs a command with its output (stdout and stderr) printed line by line after `prefix`; resolves with its exit code. */
export function runPrefixed(command, args, options = {}, prefix = '') {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: root, ...options });
    for (const [stream, out] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      let rest = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) out.write(`${prefix}${line}\n`);
      });
      stream.on('end', () => {
        if (rest) out.write(`${prefix}${rest}\n`);
      });
    }
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', () => resolve(127));
  });
}

/** Reads KEY=VALUE lines from .env without overriding variables already set. */
export function loadDotEnv(file = path.join(root, '.env')) {
  if (!existsSync(file)) return;
  for (const line of readFileSync(file, 'utf8').split(/\r?\n/)) {
    const match = /^\s*([A-Z0-9_]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match || line.trimStart().startsWith('#')) continue;
    const [, key, raw] = match;
    if (process.env[key] !== undefined) continue;
    process.env[key] = raw.replace(/^(['"])(.*)\1$/, '$2');
  }
}

function newestMtime(dir) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  if (!statSync(dir).isDirectory()) return statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** A workspace needs a build when its output is missing or older than any of its sources. */
export function needsBuild(workspace, output, sources = ['src']) {
  const outFile = path.join(root, workspace, output);
  if (!existsSync(outFile)) return true;
  const built = statSync(outFile).mtimeMs;
  return sources.some((source) => newestMtime(path.join(root, workspace, source)) > built);
}

/**
 * Each workspace `npm start` needs built, in build order: [workspace, an output file, its sources]. The services
 * import @tukio/shared's dist at run time, so it comes first (the client bundles its sources).
 */
export const buildTargets = [
  ['packages/shared', 'dist/limits.js', ['src']],
  ['server', 'dist/index.js', ['src', 'drizzle']],
  ['payment-service', 'dist/index.js', ['src']],
  ['simulator', 'dist/index.js', ['src']],
  ['client', 'dist/index.html', ['src', 'index.html', 'public']],
];

/** TypeScript sources run under tsx load @tukio/shared's sources too (its "@tukio/source" export condition). */
export const sourceFlags = ['--conditions=@tukio/source', '--import', 'tsx'];

export async function buildIfNeeded() {
  for (const [workspace, output, sources] of buildTargets) {
    if (!existsSync(path.join(root, workspace, 'package.json'))) continue;
    if (!needsBuild(workspace, output, sources)) continue;
    console.log(`[tukio] building ${workspace}…`);
    const code = await run('npm', ['run', 'build', '-w', workspace]);
    if (code !== 0) throw new Error(`build of ${workspace} failed`);
  }
}

/**
 * Whether `npm start` (and the audit) use the Daraja simulator: no Daraja app credentials are set, and
 * DARAJA_SIMULATOR does not say otherwise.
 */
export function usesDarajaSimulator(env = process.env) {
  const credentials = ['DARAJA_CONSUMER_KEY', 'DARAJA_CONSUMER_SECRET', 'DARAJA_SHORTCODE', 'DARAJA_PASSKEY'];
  const refused = ['0', 'false', 'no', 'off'].includes(String(env.DARAJA_SIMULATOR ?? '').trim().toLowerCase());
  return !refused && !credentials.some((name) => env[name]);
}

/** Where `npm start` runs the Daraja simulator (SIMULATOR_PORT, default 27685), always on this machine. */
export const darajaSimulatorUrl = (env = process.env) => `http://127.0.0.1:${env.SIMULATOR_PORT || 27685}`;
