/** The ticket-types module's public face (docs/decisions/server-boundaries.md): what an event sells (types) and its promo codes. */
export { createTicketTypesRouter } from './ticket-types.routes.js';
export { createTicketTypesService, seedTicketTypes, ticketTypeCount, type TicketTypesService } from './ticket-types.service.js';
/** Tables other modules may read in a join, never write (docs/decisions/server-boundaries.md, "Tables"). */
export { promoCodes, ticketTypes } from './ticket-types.schema.js';
export { ticketTypesPersonalData } from './personal-data.js';
