/**
 * Group commit for single-row writes: while one batch is being written, new items wait and then go
 * together in the next one. An idle system writes each item at once (no added delay); a busy one
 * writes many rows per statement and per commit instead of paying a round trip and a WAL flush
 * for each.
 *
 * `write` must return one result per item, in the items' order. When a batch fails, its items are
 * written one by one, so only the item that caused the failure sees it.
 */
export function createBatcher<Item, Result>(write: (items: Item[]) => Promise<Result[]>, options: { maxBatch: number }) {
  type Waiting = { item: Item; resolve: (result: Result) => void; reject: (error: unknown) => void };
  let queue: Waiting[] = [];
  let writing = false;

  async function writeOne(waiting: Waiting) {
    try {
      const [result] = await write([waiting.item]);
      waiting.resolve(result as Result);
    } catch (error) {
      waiting.reject(error);
    }
  }

  async function drain() {
    writing = true;
    while (queue.length > 0) {
      const batch = queue.slice(0, options.maxBatch);
      queue = queue.slice(batch.length);
      if (batch.length === 1) {
        await writeOne(batch[0]!);
        continue;
      }
      try {
        const results = await write(batch.map((waiting) => waiting.item));
        batch.forEach((waiting, index) => waiting.resolve(results[index] as Result));
      } catch {
        await Promise.all(batch.map(writeOne));
      }
    }
    writing = false;
  }

  return (item: Item): Promise<Result> =>
    new Promise<Result>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (!writing) void drain();
    });
}
