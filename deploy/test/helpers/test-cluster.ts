import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createPostgresDatabase } from '../../../server/test/helpers/test-database.js';
import { startCluster, type Cluster, type ClusterOptions } from '../../src/cluster.js';

export interface TestCluster {
  cluster: Cluster;
  /** A connection to the cluster's database, for setting up rows and checking outcomes. */
  db: pg.Client;
  close(): Promise<void>;
}

/**
 * A cluster from the TypeScript sources on a throwaway PostgreSQL database and data folder, with its own
 * Redis key prefix (counts of other runs sharing the Redis stay apart); error lines of the instances are printed.
 */
export async function startTestCluster(options: Omit<ClusterOptions, 'databaseUrl' | 'redisUrl' | 'dataDir' | 'fromSource'>): Promise<TestCluster> {
  const database = await createPostgresDatabase('tukio_cluster_test');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-cluster-'));
  let cluster: Cluster | undefined;
  let db: pg.Client | undefined;
  const close = async () => {
    await db?.end().catch(() => undefined);
    await cluster?.stop();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    cluster = await startCluster({
      databaseUrl: database.url,
      redisUrl: process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379',
      dataDir,
      fromSource: true,
      output: (name, line) => {
        if (/"level":(?:50|60)|ALERT/.test(line)) console.log(`[${name}] ${line}`);
      },
      ...options,
      env: { REDIS_KEY_PREFIX: `tukio-cluster-test-${randomUUID()}:`, LOG_LEVEL: 'error', ...options.env },
      paymentEnv: { LOG_LEVEL: 'error', ...options.paymentEnv },
    });
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
    return { cluster, db, close };
  } catch (error) {
    await close();
    throw error;
  }
}
