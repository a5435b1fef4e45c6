/** The mail module's public face: the outbox ticket and account emails go through (docs/decisions/scale-out.md, "Mail"). */
export { createMailOutbox, type MailOutbox, type MailRenderer } from './mail-outbox.service.js';
export { mailPersonalData } from './personal-data.js';
