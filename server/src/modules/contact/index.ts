/** The contact module's public face (docs/decisions/server-boundaries.md). */
export { contactBody, isContactForm } from './contact.schemas.js';
export { createContactService, type ContactService } from './contact.service.js';
export { contactPersonalData } from './personal-data.js';
