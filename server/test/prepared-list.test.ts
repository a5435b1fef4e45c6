import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreparedLists, type ListSource } from '../src/lib/prepared-list.js';

/**
 * The list answer kept per item and per block (src/lib/prepared-list.ts), over HTTP with a source in
 * memory that counts what it is asked for: after a change only the changed items are read again, and
 * the answer is still the whole list, identical in gzip and plain.
 */

type Item = { id: string; name: string; n: number };
let order: string[] = [];
const items = new Map<string, Item>();
const asked: Array<string[] | 'all'> = [];
/** While set, a read of items waits for it (to change the data in the middle of a build). */
let gate: Promise<void> | undefined;

const source: ListSource<'list'> = {
  ids: async () => [...order],
  items: async (_key, ids) => {
    asked.push(ids === 'all' ? 'all' : [...ids]);
    const wanted = ids === 'all' ? order : ids;
    const read = wanted.flatMap((id) => (items.has(id) ? [{ id, value: { ...items.get(id)! } }] : []));
    await gate;
    return read;
  },
};
// Small blocks (about 16 items): thousands of items make hundreds of them.
const lists = createPreparedLists(source, { blockItems: 16 });
const app = express();
app.get('/list', (req, res, next) => {
  lists.send(req, res, 'list').catch(next);
});
let server: ReturnType<typeof app.listen>;
let url: string;

beforeAll(async () => {
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/list`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function setItems(count: number) {
  order = [];
  items.clear();
  for (let index = 0; index < count; index += 1) add(`item-${index}`, index);
}
function add(id: string, at: number) {
  items.set(id, { id, name: `Item ${id} — Nairobi "quoted" ✓`, n: at });
  order.splice(at, 0, id);
}

/** The list as gzip (decoded strictly: CRC and length) and plain, which must agree; the parsed list and ETag. */
async function read(): Promise<{ list: Item[]; etag: string }> {
  const packed = await fetch(url, { headers: { 'accept-encoding': 'gzip' } }).then(async (response) => ({
    encoding: response.headers.get('content-encoding'),
    etag: response.headers.get('etag'),
    // Decoded by fetch (zlib: a wrong CRC or length fails it); rawGzip below checks the bytes as sent.
    body: Buffer.from(await response.arrayBuffer()),
  }));
  const plain = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
  const plainBody = Buffer.from(await plain.arrayBuffer());
  expect(packed.encoding).toBe('gzip');
  expect(packed.body.equals(plainBody)).toBe(true);
  expect(packed.etag).toBe(plain.headers.get('etag'));
  const list = JSON.parse(plainBody.toString('utf8')) as Item[];
  expect(list).toEqual(order.map((id) => items.get(id)));
  return { list, etag: plain.headers.get('etag')! };
}

/** The gzip body as sent (no decoding), to check that any strict decoder takes it. */
function rawGzip(): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    import('node:http').then(({ request }) => {
      const req = request(url, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve(Buffer.concat(chunks)));
      });
      req.on('error', reject);
      req.end();
    }, reject);
  });
}

describe('prepared lists', () => {
  it('serve an empty list as []', async () => {
    setItems(0);
    lists.forget(null);
    expect((await read()).list).toEqual([]);
    expect(zlib.gunzipSync(await rawGzip()).toString()).toBe('[]');
  });

  it('read only what changed, and stay whole across inserts, removals and edits', async () => {
    setItems(5000);
    lists.forget(null);
    asked.length = 0;
    const first = await read();
    expect(asked).toEqual(['all']);
    // Many blocks joined into one valid gzip member.
    const gz = await rawGzip();
    expect(zlib.gunzipSync(gz).toString()).toBe(JSON.stringify(order.map((id) => items.get(id))));

    // One edit: only that item is read again.
    asked.length = 0;
    items.get('item-2500')!.name = 'Edited in Kisumu';
    lists.forget('item-2500');
    const edited = await read();
    expect(asked).toEqual([['item-2500']]);
    expect(edited.etag).not.toBe(first.etag);

    // Inserted and removed in the middle; the rest is reused.
    asked.length = 0;
    add('item-new', 1234);
    lists.forget('item-new');
    order.splice(order.indexOf('item-3000'), 1);
    items.delete('item-3000');
    lists.forget('item-3000');
    await read();
    expect(asked).toEqual([['item-new']]);

    // Nothing changed: the same answer, no reads.
    asked.length = 0;
    const same = await read();
    expect(asked).toEqual([]);
    expect(zlib.gunzipSync(await rawGzip()).toString()).toBe(JSON.stringify(same.list));

    // Back to the first data: the first ETag again (it names the content, not the version).
    order.splice(order.indexOf('item-new'), 1);
    items.delete('item-new');
    add('item-3000', 3000);
    items.get('item-2500')!.name = first.list[2500]!.name;
    for (const id of ['item-3000', 'item-2500', 'item-new']) lists.forget(id);
    expect((await read()).etag).toBe(first.etag);
  });

  it('do not keep an item read before it changed', async () => {
    setItems(300);
    lists.forget(null);
    await read();
    let release!: () => void;
    gate = new Promise((resolve) => (release = resolve));
    items.get('item-42')!.n = 1;
    lists.forget('item-42');
    const during = fetch(url).then((response) => response.json() as Promise<Item[]>);
    // The build has read item-42 (n = 1) and waits; the item changes again meanwhile.
    await expect.poll(() => asked.at(-1)).toEqual(['item-42']);
    items.get('item-42')!.n = 2;
    lists.forget('item-42');
    release();
    gate = undefined;
    // The answer in flight may carry what it read; the next one reads the item again.
    expect((await during).find((item) => item.id === 'item-42')?.n).toBeGreaterThanOrEqual(1);
    expect((await read()).list.find((item) => item.id === 'item-42')?.n).toBe(2);
  });
});
