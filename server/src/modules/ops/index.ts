/** The ops module's public face (docs/decisions/server-boundaries.md): probes and metrics. */
export { createOpsRouter } from './ops.routes.js';
export { createOpsService } from './ops.service.js';
