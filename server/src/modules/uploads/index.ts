/** The uploads module's public face (docs/decisions/server-boundaries.md). */
export { uploadsDir } from './disk-store.js';
export { eventImageKey, type ObjectStore } from './object-store.js';
export { createUploadsRouter, serveUploads } from './uploads.routes.js';
export { createObjectStore, createUploadsService, type ObjectStorageSettings } from './uploads.service.js';
export { createUnusedUploadsSweep, UNUSED_UPLOAD_AGE_MS } from './unused-uploads-sweep.js';
