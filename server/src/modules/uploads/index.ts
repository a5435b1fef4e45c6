/** The uploads module's public face (docs/decisions/server-boundaries.md). */
export { createUploadsRouter, serveUploads } from './uploads.routes.js';
export { createUploadsService, uploadsDir } from './uploads.service.js';
