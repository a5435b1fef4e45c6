/** The tickets module's public face (docs/decisions/server-boundaries.md): seats, registrations, signed tickets. */
export { createRegistrationsRepository, registeredUserIdsColumn } from './registrations.repository.js';
export { createTicketSigner } from './ticket-signer.js';
export { createTicketsRepository } from './tickets.repository.js';
export { createEventTicketsRouter, createTicketsRouter } from './tickets.routes.js';
export { createTicketsService, pricePaid, ticketPaid, seatsLeftMessage, soldOutError, ticketMessages, toCsv, voidedError, voidedMessage, type SoldOutNotes, type TicketsService } from './tickets.service.js';
