/** The moderation module's public face (docs/decisions/server-boundaries.md): reports, the queue, actions and their log. */
export { createModerationRouter } from './moderation.routes.js';
export { createModerationService, type AccountMeasures, type ModerationService } from './moderation.service.js';
export { moderationPersonalData } from './personal-data.js';
