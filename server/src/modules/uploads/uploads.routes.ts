import { errorBody } from '@tukio/shared/error-body';
import { MAX_IMAGE_BYTES } from '@tukio/shared/limits';
import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import express, { Router, type RequestHandler } from 'express';
import multer from 'multer';
import { AppError, type ErrorCode } from '../../lib/app-error.js';
import type { Logger } from '../../lib/logger.js';
import { declareRoutes } from '../../lib/route-declaration.js';
import { EVENT_IMAGE_NAME, eventImageKey, IMMUTABLE_CACHE_CONTROL, type ObjectStore, type S3Store } from './object-store.js';
import { savedImage } from './uploads.responses.js';
import { uploadMessages, type UploadsService } from './uploads.service.js';

const multerMessages: Record<string, { status: number; code: ErrorCode; message: string }> = {
  LIMIT_FILE_SIZE: { status: 413, code: 'image_too_large', message: uploadMessages.tooLarge },
  LIMIT_FILE_COUNT: { status: 400, code: 'upload_one_image', message: 'Upload one image at a time.' },
  LIMIT_UNEXPECTED_FILE: { status: 400, code: 'image_missing', message: uploadMessages.missing },
  LIMIT_PART_COUNT: { status: 400, code: 'upload_too_many_parts', message: 'The upload has too many parts.' },
  LIMIT_FIELD_COUNT: { status: 400, code: 'upload_too_many_fields', message: 'The upload has too many fields.' },
};

/** Multer reports its limits as MulterError; they become the user-facing 4xx answers here. */
function singleImage(): RequestHandler {
  const parseFile = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 10, parts: 12, fieldSize: 64 * 1024 },
  }).single('file');
  return (req, res, next) => {
    parseFile(req, res, (error: unknown) => {
      if (!error) return next();
      const code = (error as { code?: unknown }).code;
      const known = typeof code === 'string' ? multerMessages[code] : undefined;
      if ((error as { name?: unknown }).name === 'MulterError') {
        return next(new AppError(known?.status ?? 400, known?.code ?? 'upload_unreadable', known?.message ?? 'The upload could not be read.', { field: 'file' }));
      }
      // Malformed multipart bodies surface as plain errors from the parser (busboy: "Malformed part
      // header", "Unexpected end of form", …). Files are kept in memory, so any other error here is
      // about the request's bytes too, never a fault of ours.
      if (error instanceof Error) {
        return next(AppError.badRequest('upload_not_multipart', 'The upload could not be read. Send the image as multipart/form-data.', 'file'));
      }
      next(error);
    });
  };
}

export function createUploadsRouter(deps: { uploads: UploadsService; uploadLimit: RequestHandler }) {
  const router = Router();

  declareRoutes(router, 'Uploads').post(
    '/',
    {
      summary: 'Upload an event image (JPEG, PNG, WebP or GIF), one file in the field `file`',
      access: 'user',
      upload: 'file',
      use: [deps.uploadLimit, singleImage()],
      responses: {
        201: {
          description: 'Where the image is served (`secure_url` as the contract\'s image host answered).',
          schema: savedImage,
        },
        413: 'The image is too large.',
        415: 'Not an image type we accept.',
        429: 'Too many uploads from this address.',
        503: 'The image store (disk or bucket) cannot take the image now; try again.',
      },
    },
    ({ req }) => {
      if (!req.file) throw AppError.badRequest('image_missing', uploadMessages.missing, 'file');
      return deps.uploads.saveImage(req.file.buffer);
    },
  );

  return router;
}

const IMAGE_TYPES: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif', svg: 'image/svg+xml' };

/** Every /uploads answer: never sniffed as anything but its type, and inert if opened on its own (SVG). */
function setUploadHeaders(res: ServerResponse) {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // Event images are public and shown by other origins too (the Vite dev client, link previews).
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  res.setHeader('Content-Security-Policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox");
}

/**
 * /uploads/<name> from a bucket. With S3_PUBLIC_URL the browser is sent there (a permanent, cached
 * redirect: the stored address stays ours, the bytes come from the bucket or its CDN); without it the
 * object is streamed through with its type and cache headers.
 */
function serveFromBucket(store: S3Store, logger: Logger | undefined): RequestHandler {
  return (req, res, next) => {
    const name = req.path.slice(1);
    const ext = EVENT_IMAGE_NAME.exec(name)?.[1];
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !ext) return next();
    const key = eventImageKey(name);
    const direct = store.publicUrl(key);
    if (direct) {
      res.setHeader('Cache-Control', IMMUTABLE_CACHE_CONTROL);
      return res.redirect(301, direct);
    }
    const ifNoneMatch = req.get('if-none-match');
    store
      .get(key, { ifNoneMatch })
      .then(async (object) => {
        if (!object) return next();
        setUploadHeaders(res);
        if (object === 'not-modified') {
          res.setHeader('Cache-Control', IMMUTABLE_CACHE_CONTROL);
          if (ifNoneMatch) res.setHeader('ETag', ifNoneMatch);
          res.status(304).end();
          return;
        }
        const type = object.contentType && Object.values(IMAGE_TYPES).includes(object.contentType) ? object.contentType : IMAGE_TYPES[ext];
        res.setHeader('Content-Type', type ?? 'application/octet-stream');
        res.setHeader('Cache-Control', object.cacheControl ?? IMMUTABLE_CACHE_CONTROL);
        if (object.contentLength !== undefined) res.setHeader('Content-Length', String(object.contentLength));
        if (object.etag) res.setHeader('ETag', object.etag);
        if (object.lastModified) res.setHeader('Last-Modified', object.lastModified.toUTCString());
        if (req.method === 'HEAD') {
          object.body.destroy();
          res.end();
          return;
        }
        // Destroys both sides if either fails (the bucket's stream breaks, the browser goes away).
        await pipeline(object.body, res);
      })
      .catch((error: unknown) => {
        // Once bytes are on their way, the browser went away or the stream broke: pipeline closed both sides.
        if (res.headersSent) return;
        logger?.error(`reading upload ${name} from the bucket failed`, error);
        next(new AppError(503, 'image_unreadable', uploadMessages.unreadable));
      });
  };
}

/** /uploads: immutable server-named images, from DATA_DIR/uploads or the bucket; anything else is a JSON 404. */
export function serveUploads(store: ObjectStore, logger?: Logger): RequestHandler[] {
  const serve =
    store.kind === 's3'
      ? serveFromBucket(store, logger)
      : express.static(store.dir, { index: false, immutable: true, maxAge: '1y', dotfiles: 'deny', setHeaders: setUploadHeaders });
  return [
    serve,
    (_req, res) => {
      res.status(404).json(errorBody('This file does not exist.', 'file_not_found'));
    },
  ];
}
