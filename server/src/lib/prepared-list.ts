import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Request, Response } from 'express';
import { acceptsEncoding } from './precompressed.js';

const deflateRaw = promisify(zlib.deflateRaw);

/** Where a list's items come from: their ids in order, and the items themselves (serialized here, one by one). */
export interface ListSource<K extends string> {
  /** The ids of the key's list, in its order. */
  ids(key: K): Promise<string[]>;
  /** The items with these ids (any order; a missing one has gone); 'all' = the key's whole list, in its order. */
  items(key: K, ids: string[] | 'all'): Promise<Array<{ id: string; value: unknown }>>;
}

/** A run of consecutive items compressed on its own, reused while it holds the same serialized items. */
interface Block {
  first: boolean;
  fragments: Buffer[];
  /** Raw deflate ending on a byte boundary without a final block, so blocks can follow each other in one stream. */
  deflated: Promise<Buffer>;
  digest: string;
}

/** One version of a key's answer. */
interface Prepared {
  etag: string;
  gzip: Promise<Buffer>;
  json(): Buffer;
}

// gzip's fixed header (no name, no time, unknown OS) and the empty final block that closes a run of blocks.
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
const FINAL_EMPTY_BLOCK = Buffer.from([0x03, 0x00]);
const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');
const CLOSE_DEFLATED = zlib.deflateRawSync(CLOSE, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
/** Past this share of items missing, the whole list is read in one statement rather than by id. */
const READ_ALL_SHARE = 0.25;
/** Items serialized between two yields to the event loop: a cold build of 100,000 must not stall other requests. */
const SERIALIZE_SLICE = 2000;
/**
 * Items a block holds on average (a block ends after an item whose id hashes to 0 modulo this, or at four
 * times as many). For events about 500 KB of JSON: each block's compression starts afresh, which costs about
 * 5 % more bytes than one stream at this size (36 % at 128 items), and recompressing one takes milliseconds.
 */
const BLOCK_ITEMS = 1024;

/**
 * Large JSON arrays that many clients read whole and that change an item at a time (the contract's event
 * lists): each item is serialized once and kept until `forget(id)`, and the list is cut into blocks
 * compressed on their own, so after one event changes the next answer reads the list's ids, serializes
 * that event and compresses its block (milliseconds) instead of rebuilding megabytes. Block boundaries
 * depend on the items' ids, not their positions, so an item added or removed changes only its own block.
 * The gzip answer is the blocks' deflate streams one after another (each ends on a byte boundary, none is
 * final) between one header and one trailer: a valid gzip member, as parallel gzip tools write. The ETag
 * is a hash of the blocks' hashes (the same list gives the same ETag on every instance); a repeat request
 * with it gets 304. gzip only: Brotli's streams cannot be joined this way, and every client takes gzip.
 */
export function createPreparedLists<K extends string>(source: ListSource<K>, options: { blockItems?: number } = {}) {
  const blockItems = options.blockItems ?? BLOCK_ITEMS;
  const fragments = new Map<string, Buffer>();
  const versions = new Map<K, number>();
  const answers = new Map<K, { version: number; prepared: Promise<Prepared> }>();
  const blocksByKey = new Map<K, Map<string, Block>>();
  /** Ids forgotten while a build was reading (null: all of them): that build must not keep what it read of them. */
  const building = new Set<{ forgotten: Set<string | null> }>();

  const serialize = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8');

  async function keep(items: Array<{ id: string; value: unknown }>, read: { forgotten: Set<string | null> }, into: Map<string, Buffer>) {
    const stale = (id: string) => read.forgotten.has(null) || read.forgotten.has(id);
    for (let start = 0; start < items.length; start += SERIALIZE_SLICE) {
      if (start > 0) await new Promise((resolve) => setImmediate(resolve));
      for (const { id, value } of items.slice(start, start + SERIALIZE_SLICE)) {
        const fragment = serialize(value);
        into.set(id, fragment);
        if (!stale(id)) fragments.set(id, fragment);
      }
    }
  }

  /** The key's items, serialized, in order: held ones reused, the rest read. */
  async function entries(key: K): Promise<Array<{ id: string; fragment: Buffer }>> {
    const read = { forgotten: new Set<string | null>() };
    building.add(read);
    try {
      const fresh = new Map<string, Buffer>();
      // Nothing held yet (a first build): the whole list at once, without asking for its ids first.
      const ids = fragments.size === 0 ? undefined : await source.ids(key);
      const missing = ids?.filter((id) => !fragments.has(id)) ?? [];
      if (!ids || missing.length > ids.length * READ_ALL_SHARE) {
        const items = await source.items(key, 'all');
        await keep(items, read, fresh);
        return items.map(({ id }) => ({ id, fragment: fresh.get(id)! }));
      }
      // Taken now: a forget while the missing ones are read must not leave a hole in this answer.
      const held = new Map(ids.map((id) => [id, fragments.get(id)] as const));
      if (missing.length > 0) await keep(await source.items(key, missing), read, fresh);
      const listed: Array<{ id: string; fragment: Buffer }> = [];
      for (const id of ids) {
        const fragment = fresh.get(id) ?? held.get(id);
        if (fragment) listed.push({ id, fragment });
      }
      return listed;
    } finally {
      building.delete(read);
    }
  }

  function makeBlock(first: boolean, blockFragments: Buffer[]): Block {
    const raw = Buffer.concat(blockPieces(first, blockFragments));
    const deflated = deflateRaw(raw, { level: 6, finishFlush: zlib.constants.Z_SYNC_FLUSH });
    // Reported by the answer that awaits it; a block no answer awaits any more must not be an unhandled rejection.
    deflated.catch(() => undefined);
    return { first, fragments: blockFragments, deflated, digest: createHash('sha256').update(raw).digest('base64url') };
  }

  function sameFragments(block: Block, blockFragments: Buffer[]) {
    return block.fragments.length === blockFragments.length && block.fragments.every((fragment, index) => fragment === blockFragments[index]);
  }

  async function prepare(key: K): Promise<Prepared> {
    const listed = await entries(key);
    const known = blocksByKey.get(key) ?? new Map<string, Block>();
    const used = new Map<string, Block>();
    const blocks: Block[] = [];
    let start = 0;
    for (let index = 0; index < listed.length; index += 1) {
      const { id } = listed[index]!;
      if (index + 1 < listed.length && index + 1 - start < 4 * blockItems && hashOf(id) % blockItems !== 0) continue;
      const first = start === 0;
      const name = `${first ? '[' : ','}${listed[start]!.id}`;
      const blockFragments = listed.slice(start, index + 1).map((entry) => entry.fragment);
      const reused = known.get(name);
      const block = reused && sameFragments(reused, blockFragments) ? reused : makeBlock(first, blockFragments);
      used.set(name, block);
      blocks.push(block);
      start = index + 1;
    }
    blocksByKey.set(key, used);
    const etag = `"${createHash('sha256')
      .update(blocks.map((block) => block.digest).join('.'))
      .digest('base64url')
      .slice(0, 32)}"`;
    const pieces = () => [...blocks.flatMap((block) => blockPieces(block.first, block.fragments)), blocks.length === 0 ? Buffer.from('[]') : CLOSE];
    let json: Buffer | undefined;
    const gzip = (async () => {
      if (blocks.length === 0) return zlib.gzipSync('[]');
      const deflated = await Promise.all(blocks.map((block) => block.deflated));
      let crc = 0;
      let length = 0;
      for (const piece of pieces()) {
        crc = zlib.crc32(piece, crc);
        length += piece.length;
      }
      const trailer = Buffer.alloc(8);
      trailer.writeUInt32LE(crc >>> 0, 0);
      // ISIZE: the length modulo 2^32.
      trailer.writeUInt32LE(length % 2 ** 32, 4);
      return Buffer.concat([GZIP_HEADER, ...deflated, CLOSE_DEFLATED, FINAL_EMPTY_BLOCK, trailer]);
    })();
    gzip.catch(() => undefined);
    return { etag, gzip, json: () => (json ??= Buffer.concat(pieces())) };
  }

  function current(key: K): Promise<Prepared> {
    const version = versions.get(key) ?? 0;
    const known = answers.get(key);
    if (known && known.version === version) return known.prepared;
    const prepared = prepare(key);
    answers.set(key, { version, prepared });
    // A failed build is not kept: the next reader tries again.
    prepared.catch(() => {
      if (answers.get(key)?.prepared === prepared) answers.delete(key);
    });
    return prepared;
  }

  return {
    /** Item `id` changed (null: any may have): its serialized form is dropped and every key's next reader gets a new answer. */
    forget(id: string | null) {
      if (id === null) fragments.clear();
      else fragments.delete(id);
      for (const read of building) read.forgotten.add(id);
      for (const key of new Set([...versions.keys(), ...answers.keys()])) versions.set(key, (versions.get(key) ?? 0) + 1);
    },

    /** Answers the request with the key's list: 304 when the client has it, gzip when it accepts it. */
    async send(req: Request, res: Response, key: K) {
      const prepared = await current(key);
      res.setHeader('ETag', prepared.etag);
      res.setHeader('Vary', 'Accept-Encoding');
      res.setHeader('Cache-Control', 'no-cache');
      if (req.fresh) {
        res.status(304).end();
        return;
      }
      res.type('json');
      if (!acceptsEncoding(req.get('accept-encoding'), 'gzip')) {
        res.send(prepared.json());
        return;
      }
      const body = await prepared.gzip;
      res.setHeader('Content-Encoding', 'gzip');
      res.send(body);
    },
  };
}

/** A block's bytes in order: `[` (the list's first block) or `,` (any other), then its items between commas. */
function blockPieces(first: boolean, fragments: Buffer[]): Buffer[] {
  return [first ? OPEN : COMMA, ...fragments.flatMap((fragment, index) => (index > 0 ? [COMMA, fragment] : [fragment]))];
}

/** FNV-1a of an id: spreads block boundaries over the ids whatever their alphabet. */
function hashOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < id.length; index += 1) hash = Math.imul(hash ^ id.charCodeAt(index), 0x01000193);
  return hash >>> 0;
}
