/** The refunds module's public face (docs/decisions/server-boundaries.md): the refund ledger and event cancellation. */
export { createEventCancellation } from './event-cancellation.service.js';
export { createAdminRefundsRouter, createEventCancellationRouter, createInternalRefundsRouter } from './refunds.routes.js';
export { createRefundLedger, createRefundsService } from './refunds.service.js';
