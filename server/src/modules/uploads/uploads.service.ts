import { MAX_IMAGE_BYTES } from '@tukio/shared/limits';
import { newId } from '../../db/ids.js';
import { AppError } from '../../lib/app-error.js';
import type { Logger } from '../../lib/logger.js';
import { createDiskStore } from './disk-store.js';
import { detectImageType } from './image-type.js';
import { eventImageKey, type ObjectStore } from './object-store.js';
import { createS3Store, type S3Settings } from './s3-store.js';

export const uploadMessages = {
  notImage: 'Only JPEG, PNG, WebP or GIF images can be uploaded.',
  tooLarge: 'The image must be at most 5 MB.',
  missing: 'Choose an image to upload (multipart form field "file").',
  unavailable: 'Images cannot be stored right now. Please try again in a moment.',
  unreadable: 'This image cannot be loaded right now. Please try again in a moment.',
} as const;

/** As config.ts reads it from S3_* (and checks it is whole). */
export type ObjectStorageSettings = { kind: 'disk' } | ({ kind: 's3' } & S3Settings);

/** The store the configuration chose: DATA_DIR/uploads unless S3 settings are given. */
export function createObjectStore(storage: ObjectStorageSettings, dataDir: string): ObjectStore {
  return storage.kind === 's3' ? createS3Store(storage) : createDiskStore(dataDir);
}

/**
 * Event images in the object store, served from /uploads whichever store holds them, so the
 * addresses stored with events do not depend on where the bytes are.
 */
export function createUploadsService(deps: { store: ObjectStore; publicUrl: string; logger?: Logger | undefined }) {
  return {
    store: deps.store,

    /** Stores an image under a name we make (never the client's), typed by its content. */
    async saveImage(buffer: Buffer): Promise<{ url: string; secure_url: string; path: string; type: string; bytes: number }> {
      if (buffer.length > MAX_IMAGE_BYTES) throw new AppError(413, 'image_too_large', uploadMessages.tooLarge, { field: 'file' });
      const type = detectImageType(buffer);
      if (!type) throw new AppError(415, 'image_type_not_allowed', uploadMessages.notImage, { field: 'file' });
      const name = `${newId()}.${type.ext}`;
      try {
        await deps.store.put(eventImageKey(name), buffer, type.mime);
      } catch (error) {
        // The store (a bucket, a full disk) failed, not the request: a 503 the user can retry, the cause in the log only.
        deps.logger?.error(`storing upload ${name} failed`, error);
        throw new AppError(503, 'image_storage_unavailable', uploadMessages.unavailable);
      }
      const publicPath = `/uploads/${name}`;
      const url = `${deps.publicUrl}${publicPath}`;
      // `secure_url` is the field the client has always read the uploaded image's address from.
      return { url, secure_url: url, path: publicPath, type: type.mime, bytes: buffer.length };
    },
  };
}

export type UploadsService = ReturnType<typeof createUploadsService>;
