import type { Readable } from 'node:stream';

/**
 * Where event images are kept (docs/decisions/object-storage.md). Two stores, one port: `disk` is a
 * folder the API serves itself (one instance, no extra service), `s3` is a bucket every instance
 * shares. The kinds differ in how objects reach the browser, so the union says which one it is.
 */
export type ObjectStore = DiskStore | S3Store;

/** One stored object as the sweep of unused uploads sees it. */
export interface StoredEntry {
  key: string;
  lastModified: Date;
  /** The disk store's file name when it is not the key's (a write left half-done). */
  file?: string;
}

interface Writes {
  /** Stores an object under a key we made (`events/<id>.<ext>`); keys are never reused. */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** Every event image stored, with when it was written. */
  list(): AsyncIterable<StoredEntry>;
  /** Removes one listed object (gone already is fine). */
  remove(entry: StoredEntry): Promise<void>;
}

export interface DiskStore extends Writes {
  kind: 'disk';
  /** The folder event images are files in, served as they are at /uploads. */
  dir: string;
}

export interface S3Store extends Writes {
  kind: 's3';
  /** The object, `not-modified` when `ifNoneMatch` still matches, or undefined when there is none. */
  get(key: string, options?: { ifNoneMatch?: string | undefined }): Promise<StoredObject | 'not-modified' | undefined>;
  /** Where browsers load the object from directly (S3_PUBLIC_URL), or undefined when the API streams it. */
  publicUrl(key: string): string | undefined;
}

export interface StoredObject {
  body: Readable;
  contentType: string | undefined;
  contentLength: number | undefined;
  cacheControl: string | undefined;
  etag: string | undefined;
  lastModified: Date | undefined;
}

/** Names are server-made and never reused, so a stored image never changes: browsers and CDNs keep it a year. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** An event image's name as the URL shows it: `/uploads/<name>`. */
export const EVENT_IMAGE_NAME = /^[0-9a-f]{24}\.(jpg|png|webp|gif|svg)$/;

/** Event images live under `events/` in a bucket, so other kinds of object can sit beside them later. */
export const eventImageKey = (name: string) => `events/${name}`;
