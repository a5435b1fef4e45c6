/** The api-keys module's public face (docs/decisions/webhooks.md, "API keys"): organisers' keys and the /api/v1 routes they open. */
export { createApiKeysRouter, createApiV1Router } from './api-keys.routes.js';
export { createApiKeysService, type ApiKeysService } from './api-keys.service.js';
export { apiKeysPersonalData } from './personal-data.js';
