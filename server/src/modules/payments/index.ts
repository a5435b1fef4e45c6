/** The payments module's public face (docs/decisions/server-boundaries.md): orders, M-Pesa payments, refunds. */
export { createPaymentsRepository } from './payments.repository.js';
export { createInternalPaymentsRouter, createRefundsRouter, createTransactionsRouter } from './payments.routes.js';
export { createPaymentsService } from './payments.service.js';
