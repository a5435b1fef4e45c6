/**
 * Tickets one free registration or one paid order may take, and how a request's quantity reads: free
 * registration (tickets) and checkout (payments, the payment service, the client) agree through @tukio/shared.
 */
export { MAX_TICKETS_PER_ORDER } from '@tukio/shared/limits';
export { quantitySchema } from '@tukio/shared/internal-api';
