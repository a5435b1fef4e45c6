/** The data-rights module's public face (docs/decisions/data-rights.md): "Download my data", "Delete my account" and its own map entries. */
export { createDataExportRouter } from './data-export.routes.js';
export { createDataExportService, DATA_EXPORT_INTERVAL_MS, DATA_EXPORT_LINK_MS, type DataExportService, type DataExportStatus } from './data-export.service.js';
export { createAccountDeletionLinksRouter, createAccountDeletionRequestRouter, createAdminAccountDeletionRouter } from './account-deletion.routes.js';
export { createAccountDeletionService, type AccountDeletionService } from './account-deletion.service.js';
export { dataRightsPersonalData } from './personal-data.js';
