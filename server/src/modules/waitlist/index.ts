/** The waitlist module's public face (docs/decisions/server-boundaries.md): places on sold-out events and the offers of freed seats. */
export { createWaitlistRouter } from './waitlist.routes.js';
export { createWaitlistService, type WaitlistService } from './waitlist.service.js';
export { waitlistPersonalData } from './personal-data.js';
export { waitlistRetention } from './retention.js';
