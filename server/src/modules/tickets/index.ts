/** The tickets module's public face (docs/decisions/server-boundaries.md): seats, registrations, signed tickets. */
export { createTicketSigner } from './ticket-signer.js';
export { eventSeats, registeredUserIdsColumn, ticketRecords, ticketRegistrations } from './ticket-records.service.js';
export { dateHolders, type DateHolder } from './date-holders.js';
export { createEventTicketsRouter, createTicketsRouter } from './tickets.routes.js';
export { createTicketsService, type TicketAnswers, pricePaid, ticketPaid, seatsLeftMessage, soldOutError, ticketMessages, toCsv, voidedError, voidedMessage, type SoldOutNotes, type TicketsService } from './tickets.service.js';
/** Tables other modules may read in a join, never write (docs/decisions/server-boundaries.md, "Tables"). */
export { tickets } from './tickets.schema.js';
export { ticketsPersonalData } from './personal-data.js';
export { ticketsRetention } from './retention.js';
