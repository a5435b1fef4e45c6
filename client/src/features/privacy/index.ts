/* Privacy feature (docs/decisions/data-rights.md, "Privacy notice"): the /privacy page's data and the link to it. */
export { getPrivacySettings, type PrivacySettings, type PrivacyProcessor } from './api/privacy-api';
