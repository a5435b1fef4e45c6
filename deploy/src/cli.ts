/**
 * `npm run cluster [-- --apis 2 --payments 2 --port 8080]`: the multi-instance topology on this machine
 * (src/cluster.ts) until Ctrl-C. DATABASE_URL (default: database tukio_cluster on the local PostgreSQL, made
 * when missing), REDIS_URL (default: the local Redis) and DATA_DIR (default data/cluster) come from the
 * environment or .env; SEED_DEMO=false starts it empty.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { root, startCluster } from './cluster.js';

const { values } = parseArgs({
  options: {
    apis: { type: 'string', default: '2' },
    payments: { type: 'string', default: '2' },
    port: { type: 'string', default: '8080' },
  },
});
const count = (name: string, value: string, max: number) => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > max) {
    console.error(`--${name} must be a whole number from 1 to ${max}`);
    process.exit(2);
  }
  return parsed;
};

/** The default database is made on the local server the first time (the instances then apply the migrations). */
async function ensureDatabase(url: string) {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tukio_cluster';
if (!process.env.DATABASE_URL) await ensureDatabase(databaseUrl);
const cluster = await startCluster({
  apis: count('apis', values.apis, 16),
  payments: count('payments', values.payments, 16),
  port: count('port', values.port, 65535),
  databaseUrl,
  redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  dataDir: path.resolve(root, process.env.DATA_DIR ?? 'data/cluster'),
  env: { SEED_DEMO: process.env.SEED_DEMO ?? 'true', LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' },
  output: (name, line) => console.log(`[${name}] ${line}`),
});
console.log(`\nTukio on ${cluster.url} — ${cluster.apis.length} API instances (${cluster.apis.map((instance) => instance.url).join(', ')})`);
console.log(`payment service: ${cluster.payments.length} instances behind ${cluster.paymentUrl}`);
console.log(`M-Pesa prompts (Daraja simulator): ${cluster.url}/simulator?key=${cluster.simulatorKey}`);
console.log('Ctrl-C stops everything.');
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void cluster.stop().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
