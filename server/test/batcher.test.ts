import { describe, expect, it } from 'vitest';
import { createBatcher } from '../src/lib/batcher.js';

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
});
