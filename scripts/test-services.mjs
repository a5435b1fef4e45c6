// What `npm test` needs besides Node and npm: Chromium for the browser tests, HAProxy for the cluster tests, and a PostgreSQL and a Redis
// server for the server and payment suites (tests of the PostgreSQL variant, of a database outage and of
// two instances joined by Redis use them, whatever TEST_DB says). Each is used where it already runs,
// started when installed but stopped (as .ci/run does), installed from Debian's packages when missing and
// running as root, and otherwise the run stops with what to install. No test skips for want of one.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { root } from './lib.mjs';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function fail(message) {
  console.error(`[test] ${message}`);
  process.exit(1);
}

function onPath(command) {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && existsSync(path.join(dir, command)));
}

let aptUpdated = false;
/** Installs Debian packages as root; anyone else is told the command to run. */
function aptInstall(packages, why, otherwise = '') {
  if (!isRoot()) fail(`${why}: run \`sudo apt-get install -y ${packages.join(' ')}\`${otherwise} and try again.`);
  console.log(`[test] installing Debian ${packages.join(', ')} (${why})…`);
  if (!aptUpdated) execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  aptUpdated = true;
  execFileSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

/** Polls `check` (resolving to an error message, or null once ready) until ready or `timeoutMs` passes. */
async function waitUntilReady(check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const problem = await check();
    if (problem === null || Date.now() > deadline) return problem;
    await sleep(250);
  }
}

const isLocal = (url) => ['127.0.0.1', 'localhost', '::1', '[::1]'].includes(new URL(url).hostname);

function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
  return candidates.find((candidate) => candidate && existsSync(candidate));
}

export function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  aptInstall(['chromium'], 'the browser tests need Chromium', ' (or set CHROMIUM_PATH)');
  return findChromium() ?? fail('Chromium could not be installed; install it with `apt-get install -y chromium`.');
}

/** HAProxy for the cluster suite (deploy/test): Debian's package, installed when missing. */
export function ensureHaproxy() {
  const find = () => [process.env.HAPROXY_PATH, '/usr/sbin/haproxy', '/usr/bin/haproxy'].find((candidate) => candidate && existsSync(candidate));
  if (find()) return;
  aptInstall(['haproxy'], 'the cluster tests need HAProxy', ' (or set HAPROXY_PATH)');
  if (!find()) fail('HAProxy could not be installed; install it with `apt-get install -y haproxy`.');
}

/** null when `url` accepts a login and a query, else why not. */
async function postgresProblem(url) {
  const { Client } = createRequire(path.join(root, 'server/package.json'))('pg');
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (error) {
    return error instanceof Error ? error.message || String(error.code) : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Debian's clusters with their port and state (`pg_lsclusters`); empty when PostgreSQL is not installed. */
function postgresClusters() {
  if (!onPath('pg_lsclusters')) return [];
  return execFileSync('pg_lsclusters', ['--no-header'], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length >= 4)
    .map(([version, name, port, status]) => ({ version, name, port, online: status === 'online' }));
}

const pgCluster = (cluster, action) => execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', cluster.version, cluster.name, action], { stdio: 'inherit' });

/**
 * A cluster this script just installed lets the local `postgres` user in over 127.0.0.1 without a password
 * (Debian's default asks for one), as the test URL has none.
 */
function trustLocalPostgres({ version, name }) {
  const file = `/etc/postgresql/${version}/${name}/pg_hba.conf`;
  const line = 'host all postgres 127.0.0.1/32 trust';
  const current = readFileSync(file, 'utf8');
  if (!current.includes(line)) writeFileSync(file, `# Added by Tukio's npm test: its test databases.\n${line}\n${current}`);
}

export async function ensurePostgres() {
  const url = process.env.TEST_DATABASE_URL || DEFAULT_DATABASE_URL;
  let problem = await postgresProblem(url);
  if (problem !== null && isLocal(url) && /ECONNREFUSED/.test(problem)) {
    const port = new URL(url).port || '5432';
    const justInstalled = postgresClusters().length === 0;
    if (justInstalled) aptInstall(['postgresql'], 'the server tests need PostgreSQL');
    // Only the cluster on the URL's port, and only when it is down: a running one is never restarted.
    const cluster = postgresClusters().find((candidate) => candidate.port === port);
    if (cluster && justInstalled) {
      trustLocalPostgres(cluster);
      if (cluster.online) pgCluster(cluster, 'reload');
    }
    if (cluster && !cluster.online) {
      console.log(`[test] starting PostgreSQL ${cluster.version}/${cluster.name}…`);
      try {
        pgCluster(cluster, 'start');
      } catch {
        // A user other than root or postgres is refused here; whether it came up is checked next.
      }
    }
    if (cluster) problem = await waitUntilReady(() => postgresProblem(url), 30_000);
  }
  if (problem !== null) {
    fail(
      `the server tests need PostgreSQL at ${url.replace(/\/\/[^@/]*@/, '//…@')} (${problem}). ` +
        'Install it (`sudo apt-get install -y postgresql`) and start it (`sudo pg_ctlcluster 15 main start`), ' +
        'or set TEST_DATABASE_URL to a server where this user may create databases.',
    );
  }
  process.env.TEST_DATABASE_URL = url;
  return url;
}

/** null when a Redis server at `url` answers PING, else why not. */
function redisProblem(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port || 6379) });
    const done = (problem) => {
      socket.destroy();
      resolve(problem);
    };
    socket.setTimeout(3000, () => done('no answer within 3 s'));
    socket.once('error', (error) => done(error.message));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG') ? null : `answered ${JSON.stringify(data.toString().trim())}`));
  });
}

export async function ensureRedis() {
  const url = process.env.REDIS_TEST_URL || DEFAULT_REDIS_URL;
  let problem = await redisProblem(url);
  if (problem !== null && isLocal(url) && /ECONNREFUSED/.test(problem)) {
    if (!onPath('redis-server')) aptInstall(['redis-server'], 'the server tests need Redis');
    // Debian's package may have started its own server already; otherwise one that keeps nothing on disk.
    if ((await redisProblem(url)) !== null) {
      console.log('[test] starting Redis…');
      const port = new URL(url).port || '6379';
      execFileSync('redis-server', ['--daemonize', 'yes', '--bind', '127.0.0.1', '--port', port, '--save', '', '--appendonly', 'no'], { stdio: 'inherit' });
    }
    problem = await waitUntilReady(() => redisProblem(url), 15_000);
  }
  if (problem !== null) {
    fail(`the server tests need Redis at ${url} (${problem}). Install it (\`sudo apt-get install -y redis-server\`) and start it, or set REDIS_TEST_URL.`);
  }
  process.env.REDIS_TEST_URL = url;
  return url;
}
