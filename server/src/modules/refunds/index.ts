/** The refunds module's public face (docs/decisions/server-boundaries.md): the refund ledger, event cancellation and self-cancel. */
export { createEventCancellation } from './event-cancellation.service.js';
export { createAdminRefundsRouter, createEventCancellationRouter, createInternalRefundsRouter, createSelfCancelRouter } from './refunds.routes.js';
export { createRefundLedger, createRefundsService } from './refunds.service.js';
export { createSelfCancel } from './self-cancel.service.js';
/** Tables other modules may read in a join, never write (docs/decisions/server-boundaries.md, "Tables"). */
export { refunds } from './refunds.schema.js';
