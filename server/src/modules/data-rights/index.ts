/** The data-rights module's public face (docs/decisions/data-rights.md): "Download my data" and its own map entry. */
export { createDataExportRouter } from './data-export.routes.js';
export { createDataExportService, DATA_EXPORT_INTERVAL_MS, DATA_EXPORT_LINK_MS, type DataExportService, type DataExportStatus } from './data-export.service.js';
export { dataRightsPersonalData } from './personal-data.js';
