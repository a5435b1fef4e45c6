/** The retention module's public face (docs/decisions/data-rights.md, "Retention" and "Privacy notice"). */
export { createAdminRetentionRouter, createPrivacyRouter } from './retention.routes.js';
export { createRetentionService, type RetentionService } from './retention.service.js';
export { privacySettingsOf, DELETION_GRACE_DAYS } from './privacy.js';
export { retentionPersonalData } from './personal-data.js';
