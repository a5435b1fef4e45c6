import { describe, expect, it } from 'vitest';
import { createBatcher } from '@tukio/shared/node/batcher';
import { createBackgroundQueue } from '../src/lib/keyed-queue.js';

describe('createBatcher (group commit)', () => {
  it('writes an item at once when idle, and items arriving meanwhile together in the next write', async () => {
    const writes: number[][] = [];
    let release: (() => void) | undefined;
    const write = createBatcher(
      async (items: number[]) => {
        writes.push(items);
        if (writes.length === 1) await new Promise<void>((resolve) => (release = resolve));
        return items.map((item) => item * 10);
      },
      { maxBatch: 3 },
    );
    const first = write(1);
    const rest = [2, 3, 4, 5, 6].map((item) => write(item));
    release!();
    expect(await Promise.all([first, ...rest])).toEqual([10, 20, 30, 40, 50, 60]);
    expect(writes).toEqual([[1], [2, 3, 4], [5, 6]]);
  });

  it('gives a failing item its error and the rest of its batch their results', async () => {
    let calls = 0;
    const write = createBatcher(
      async (items: string[]) => {
        calls += 1;
        if (items.includes('bad')) throw new Error(`refused ${items.join(',')}`);
        return items.map((item) => item.toUpperCase());
      },
      { maxBatch: 10 },
    );
    const results = await Promise.allSettled(['a', 'b', 'bad', 'c'].map((item) => write(item)));
    expect(results.map((result) => (result.status === 'fulfilled' ? result.value : (result.reason as Error).message))).toEqual(['A', 'B', 'refused bad', 'C']);
    expect(calls).toBeGreaterThan(1);
    // Still usable afterwards.
    expect(await write('d')).toBe('D');
  });

  it('keeps up to `inFlight` batches on the way: a hung one holds back only its own items', async () => {
    const writes: number[][] = [];
    const hung: Array<() => void> = [];
    const write = createBatcher(
      async (items: number[]) => {
        writes.push(items);
        if (items.includes(1)) await new Promise<void>((resolve) => hung.push(resolve));
        return items;
      },
      { maxBatch: 10, inFlight: 2 },
    );
    const first = write(1);
    // The second item goes at once beside the hung first batch, the next ones together after it.
    expect(await write(2)).toBe(2);
    const later = [3, 4].map((item) => write(item));
    expect(await Promise.all(later)).toEqual([3, 4]);
    expect(writes).toEqual([[1], [2], [3, 4]]);
    hung[0]!();
    expect(await first).toBe(1);
  });
});

describe('createBackgroundQueue', () => {
  it('runs jobs in order past a failing one, and idle() waits for them or gives up after its timeout', async () => {
    const queue = createBackgroundQueue();
    expect(await queue.idle(10)).toBe(true);
    const ran: string[] = [];
    const failures: unknown[] = [];
    let release: (() => void) | undefined;
    queue.push(async () => {
      await new Promise<void>((resolve) => (release = resolve));
      ran.push('slow');
    }, (error) => failures.push(error));
    queue.push(async () => {
      throw new Error('smtp down');
    }, (error) => failures.push(error));
    queue.push(async () => {
      ran.push('after the failure');
    }, (error) => failures.push(error));

    expect(await queue.idle(30)).toBe(false);
    expect(queue.pending).toBe(3);
    const drained = queue.idle(5000);
    release!();
    expect(await drained).toBe(true);
    expect(ran).toEqual(['slow', 'after the failure']);
    expect(failures).toEqual([new Error('smtp down')]);
    expect(queue.pending).toBe(0);
  });
});
