/** The retention module's public face (docs/decisions/data-rights.md, "Retention" and "Privacy notice"). */
export { createAdminRetentionRouter, createPrivacyRouter } from './retention.routes.js';
export { createRetentionService, type RetentionService } from './retention.service.js';
export { privacySettingsOf } from './privacy.js';
export { retentionPersonalData } from './personal-data.js';
