/** The ticket-types module's public face (docs/decisions/server-boundaries.md): what an event sells (types) and its promo codes. */
export { createTicketTypesRouter } from './ticket-types.routes.js';
export { createTicketTypesService, type TicketTypesService } from './ticket-types.service.js';
export { createTicketTypesRepository } from './ticket-types.repository.js';
