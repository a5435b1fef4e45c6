/**
 * Group commit for single-item writes: while a batch is being written, new items wait and then go
 * together in the next one. An idle system writes each item at once (no added delay); a busy one
 * writes many rows per statement and per commit (or many calls per request) instead of paying a round
 * trip for each.
 *
 * `write` must return one result per item, in the items' order. When a batch fails, its items are
 * written one by one, so only the item that caused the failure sees it.
 *
 * `inFlight` (default 1) is how many batches may be on the way at once: more than one where a batch can
 * hang (a request to a server that stopped answering) and the items behind it should not all wait for it.
 */
export function createBatcher<Item, Result>(write: (items: Item[]) => Promise<Result[]>, options: { maxBatch: number; inFlight?: number }) {
  type Waiting = { item: Item; resolve: (result: Result) => void; reject: (error: unknown) => void };
  const queue: Waiting[] = [];
  const inFlight = options.inFlight ?? 1;
  let writing = 0;

  async function writeOne(waiting: Waiting) {
    try {
      const [result] = await write([waiting.item]);
      waiting.resolve(result as Result);
    } catch (error) {
      waiting.reject(error);
    }
  }

  async function writeBatch(batch: Waiting[]) {
    if (batch.length === 1) return writeOne(batch[0]!);
    try {
      const results = await write(batch.map((waiting) => waiting.item));
      batch.forEach((waiting, index) => waiting.resolve(results[index] as Result));
    } catch {
      await Promise.all(batch.map(writeOne));
    }
  }

  function startWrites() {
    while (writing < inFlight && queue.length > 0) {
      writing += 1;
      void writeBatch(queue.splice(0, options.maxBatch)).finally(() => {
        writing -= 1;
        startWrites();
      });
    }
  }

  return (item: Item): Promise<Result> =>
    new Promise<Result>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      startWrites();
    });
}
