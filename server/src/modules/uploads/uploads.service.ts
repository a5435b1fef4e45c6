import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MAX_IMAGE_BYTES } from '@tukio/shared/limits';
import { newId } from '../../db/ids.js';
import { AppError } from '../../lib/app-error.js';
import { detectImageType } from './image-type.js';

export const uploadMessages = {
  notImage: 'Only JPEG, PNG, WebP or GIF images can be uploaded.',
  tooLarge: 'The image must be at most 5 MB.',
  missing: 'Choose an image to upload (multipart form field "file").',
} as const;

export function uploadsDir(dataDir: string): string {
  return path.join(dataDir, 'uploads');
}

/** Event images kept on local disk under DATA_DIR/uploads and served from /uploads. */
export function createUploadsService(deps: { dataDir: string; publicUrl: string }) {
  const dir = uploadsDir(deps.dataDir);

  return {
    dir,

    /** Stores an image under a name we make (never the client's), typed by its content. */
    async saveImage(buffer: Buffer): Promise<{ url: string; secure_url: string; path: string; type: string; bytes: number }> {
      if (buffer.length > MAX_IMAGE_BYTES) throw new AppError(413, uploadMessages.tooLarge, { field: 'file' });
      const type = detectImageType(buffer);
      if (!type) throw new AppError(415, uploadMessages.notImage, { field: 'file' });
      const name = `${newId()}.${type.ext}`;
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, name), buffer, { flag: 'wx' });
      const publicPath = `/uploads/${name}`;
      const url = `${deps.publicUrl}${publicPath}`;
      // `secure_url` is the field the client has always read the uploaded image's address from.
      return { url, secure_url: url, path: publicPath, type: type.mime, bytes: buffer.length };
    },
  };
}

export type UploadsService = ReturnType<typeof createUploadsService>;
