/** The payments module's public face (docs/decisions/server-boundaries.md): orders and M-Pesa payments. */
export { createPaymentsRepository } from './payments.repository.js';
export { auditSuccessClaims } from './payments-audit.js';
export { createGuestTicketsRouter, createInternalPaymentsRouter, createTransactionsRouter } from './payments.routes.js';
export { createGuestCheckout, type GuestCheckout } from './guest-checkout.service.js';
export { createGuestTicketLinks } from './guest-ticket-links.js';
export { createPaymentsService, type PaymentsService, type RefundLedger } from './payments.service.js';
export { createEventReminders, reminderText, type EventReminders } from './event-reminders.js';
export { createPaymentPasses, type PaymentPasses } from './payment-passes.js';
/** Tables other modules may read in a join, never write (docs/decisions/server-boundaries.md, "Tables"). */
export { orderItems, orders, payments } from './payments.schema.js';
