import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { jobPollSeconds, startJobQueue } from '../src/lib/job-queue.js';
import { createLogger } from '../src/lib/logger.js';
import { pgliteTemplate } from './helpers/pglite-template.js';

describe('how often job workers poll', () => {
  it('polls at the retry delay, no faster than every 2 s and no slower than every 10 s', () => {
    // The default retry delay (JOBS_RETRY_DELAY_SECONDS=10): five times fewer polls than the former 2 s on every instance.
    expect(jobPollSeconds(10)).toBe(10);
    expect(jobPollSeconds(5)).toBe(5);
    // Tests retry after 1 s: still found within 2 s.
    expect(jobPollSeconds(1)).toBe(2);
    expect(jobPollSeconds(3600)).toBe(10);
  });
});

describe('creating the queues', () => {
  it('creates one queue at a time on an instance whose workers all start at once (concurrent creations deadlocked on PostgreSQL)', async () => {
    const database = await openDatabase({ startFrom: pgliteTemplate() });
    let running = 0;
    let mostAtOnce = 0;
    const created: string[] = [];
    const queue = await startJobQueue({
      logger: createLogger('silent'),
      expireSeconds: 60,
      retryLimit: 1,
      retryDelaySeconds: 10,
      // pg-boss creates a queue with its create_queue function: count how many run at the same moment.
      executeSql: async (text, values) => {
        if (!text.includes('create_queue(')) return database.executeSql(text, values);
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        try {
          return await database.executeSql(text, values);
        } finally {
          running -= 1;
          created.push(String(values?.[0]));
        }
      },
    });
    try {
      const names = ['creation-a', 'creation-b', 'creation-c', 'creation-d'];
      await Promise.all(names.map((name) => queue.work(name, async () => undefined)));
      expect(created.filter((name) => names.includes(name)).sort()).toEqual(names);
      expect(mostAtOnce).toBe(1);
    } finally {
      await queue.stop(1000);
      await database.close();
    }
  });
});
