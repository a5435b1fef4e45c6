import { MAX_IMAGE_BYTES } from '@tukio/shared/limits';
import express, { Router, type RequestHandler } from 'express';
import multer from 'multer';
import { AppError } from '../../lib/app-error.js';
import { declareRoutes } from '../../lib/route-declaration.js';
import { savedImage } from './uploads.responses.js';
import { uploadMessages, type UploadsService } from './uploads.service.js';

const multerMessages: Record<string, { status: number; message: string }> = {
  LIMIT_FILE_SIZE: { status: 413, message: uploadMessages.tooLarge },
  LIMIT_FILE_COUNT: { status: 400, message: 'Upload one image at a time.' },
  LIMIT_UNEXPECTED_FILE: { status: 400, message: uploadMessages.missing },
  LIMIT_PART_COUNT: { status: 400, message: 'The upload has too many parts.' },
  LIMIT_FIELD_COUNT: { status: 400, message: 'The upload has too many fields.' },
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
        return next(new AppError(known?.status ?? 400, known?.message ?? 'The upload could not be read.', { field: 'file' }));
      }
      // Malformed multipart bodies surface as plain errors from the parser (busboy: "Malformed part
      // header", "Unexpected end of form", …). Files are kept in memory, so any other error here is
      // about the request's bytes too, never a fault of ours.
      if (error instanceof Error) {
        return next(AppError.badRequest('The upload could not be read. Send the image as multipart/form-data.', 'file'));
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
      },
    },
    ({ req }) => {
      if (!req.file) throw AppError.badRequest(uploadMessages.missing, 'file');
      return deps.uploads.saveImage(req.file.buffer);
    },
  );

  return router;
}

/** /uploads: immutable server-named files, never sniffed as anything but their type. */
export function serveUploads(dir: string): RequestHandler[] {
  return [
    express.static(dir, {
      index: false,
      immutable: true,
      maxAge: '1y',
      dotfiles: 'deny',
      setHeaders: (res) => {
        res.setHeader('X-Content-Type-Options', 'nosniff');
        // Event images are public and shown by other origins too (the Vite dev client, link previews).
        res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
        res.setHeader('Content-Security-Policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox");
      },
    }),
    (_req, res) => {
      res.status(404).json({ msg: 'This file does not exist.', message: 'This file does not exist.' });
    },
  ];
}
