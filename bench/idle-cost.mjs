// bench/idle-cost.mjs — what a cluster (or a single stack) costs doing nothing: CPU per second of each process it
// starts (API and payment instances, the simulator, HAProxy, the PostgreSQL backends of its database), over
// IDLE_S seconds after it is up. The background work (health checks, job-queue polls, Redis watchdogs, sweeps)
// is paid by every ticket of a slow sale. Usage: npm run build && node --import tsx bench/idle-cost.mjs
// Knobs: TOPOLOGY=cluster,single IDLE_S=30 REDIS_URL=redis://127.0.0.1:6379 CPU_PROFILE_DIR= (bench/cpu-profile.mjs)
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startCluster } from '../deploy/src/cluster.ts';
import { cpuSeconds, createDatabase, loadAverage, root } from './lib.mjs';

const IDLE_S = Number(process.env.IDLE_S ?? 30);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const profiling = process.env.CPU_PROFILE_DIR ? { NODE_OPTIONS: `--import ${path.join(root, 'bench/cpu-profile.mjs')}`, CPU_PROFILE_DIR: process.env.CPU_PROFILE_DIR } : {};
for (const topology of (process.env.TOPOLOGY ?? 'cluster,single').split(',')) {
  const single = topology === 'single';
  const database = await createDatabase('tukio_bench_idle');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-bench-idle-'));
  const cluster = await startCluster({
    apis: single ? 1 : 2, payments: single ? 1 : 2, balancer: !single, databaseUrl: database.url, redisUrl: single ? undefined : REDIS_URL, dataDir,
    env: { REDIS_KEY_PREFIX: `tukio-bench-idle-${process.pid}:`, ...profiling }, paymentEnv: { RECONCILE_INTERVAL_MS: '5000', ...profiling },
  });
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    // Settled first: the instances' start-up work is not idle cost.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const backends = async () => (await db.query('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()')).rows.map((row) => row.pid);
    const processes = [...cluster.apis, ...cluster.payments, ...cluster.support];
    const before = processes.map((p) => cpuSeconds(p.pid));
    const pgBefore = new Map((await backends()).map((pid) => [pid, cpuSeconds(pid)]));
    await new Promise((resolve) => setTimeout(resolve, IDLE_S * 1000));
    const per = (seconds) => `${((seconds / IDLE_S) * 1000).toFixed(1)} ms/s`;
    const pgNow = (await backends()).reduce((sum, pid) => sum + cpuSeconds(pid) - (pgBefore.get(pid) ?? 0), 0);
    console.log(`${topology} idle for ${IDLE_S} s (load average ${loadAverage()}): ${processes.map((p, i) => `${p.name} ${per(cpuSeconds(p.pid) - before[i])}`).join(', ')}, postgres ${per(pgNow)}`);
  } finally {
    await db.end();
    await cluster.stop();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
process.exit(0);
