// Shared bench helpers: throwaway PostgreSQL databases, server processes, percentiles.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { sourceFlags } from '../scripts/lib.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const postgresServer = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export async function createDatabase(prefix) {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresServer });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(postgresServer);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: postgresServer });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * Starts a service from its TypeScript sources in a child process and waits for its /api/health.
 * NODE_FLAGS passes node flags to the services, e.g. NODE_FLAGS='--cpu-prof --cpu-prof-dir=/tmp/prof'.
 * `options.built`: `entry` is compiled JavaScript (dist/), run as `npm start` runs it. `options.discardStdout`:
 * its stdout (one log line per request at the default level) goes to a pipe that is read and dropped.
 * `options.healthPath`: what to GET until it answers 2xx (default /api/health).
 */
export async function startService(entry, env, port, options = {}) {
  const nodeFlags = (process.env.NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeFlags, ...(options.built ? [] : sourceFlags), path.join(root, entry)], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', options.discardStdout ? 'pipe' : 'inherit', 'inherit'],
  });
  child.stdout?.resume();
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${url}${options.healthPath ?? '/api/health'}`)).ok) break;
    } catch {}
    if (child.exitCode !== null) throw new Error(`${entry} exited during start`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  return {
    url,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

/** The API server (demo data off unless `env` turns it on). */
export const startApi = (env) => startService('server/src/index.ts', { SEED_DEMO: 'false', ...env }, env.PORT);

/** A bare Express app in its own process, like the API, so both are measured the same way. */
export async function startBareExpress(barePort) {
  const source = `
    import express from 'express';
    const app = express();
    app.get('/bare', (_req, res) => res.json({ ok: true }));
    app.listen(${barePort}, () => process.send?.('ready'));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', source], { cwd: root, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', () => reject(new Error('bare express exited')));
  });
  return {
    url: `http://127.0.0.1:${barePort}`,
    stop: () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', resolve), child.kill('SIGTERM')))),
  };
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** `count` distinct ports the OS reports free (all bound at once, then released): a random pick could be in use. */
export async function freePorts(count) {
  const servers = await Promise.all(
    Array.from({ length: count }, () => new Promise((resolve, reject) => {
      const server = net.createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve(server));
    })),
  );
  const ports = servers.map((server) => server.address().port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

export const freePort = async () => (await freePorts(1))[0];

/** CPU seconds (user + system) a process has used, from /proc. */
export function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

export const loadAverage = () => os.loadavg().map((n) => n.toFixed(1)).join(' ');

/**
 * Starts counting the CPU of a stack's processes (`api`, `pay`, `daraja`: each `{pid}`) and of the PostgreSQL
 * backends on `db`'s database (this bench's own connection excluded; a backend that has closed meanwhile is
 * missed, so PostgreSQL is "~"; no `db`: PGlite, inside the API server). `read()` answers the seconds used since, and
 * the bench process's own.
 */
export async function startCpuMeter({ api, pay, daraja, db }) {
  const backendPids = async () => (db ? (await db.query('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()')).rows.map((r) => r.pid) : []);
  const before = { api: cpuSeconds(api.pid), pay: cpuSeconds(pay.pid), daraja: cpuSeconds(daraja.pid), bench: process.cpuUsage() };
  const pgBefore = new Map((await backendPids()).map((pid) => [pid, cpuSeconds(pid)]));
  return {
    async read() {
      const bench = process.cpuUsage(before.bench);
      let pg = 0;
      for (const pid of await backendPids()) pg += cpuSeconds(pid) - (pgBefore.get(pid) ?? 0);
      return { api: cpuSeconds(api.pid) - before.api, pay: cpuSeconds(pay.pid) - before.pay, daraja: cpuSeconds(daraja.pid) - before.daraja, pg, bench: (bench.user + bench.system) / 1e6 };
    },
  };
}
