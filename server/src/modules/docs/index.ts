/** The docs module's public face (docs/decisions/server-boundaries.md). */
export { createDocsRouter } from './docs.routes.js';
