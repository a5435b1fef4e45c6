/** The payments module's public face (docs/decisions/server-boundaries.md): orders and M-Pesa payments. */
export { createPaymentsRepository } from './payments.repository.js';
export { createInternalPaymentsRouter, createTransactionsRouter } from './payments.routes.js';
export { createPaymentsService, type PaymentsService, type RefundLedger } from './payments.service.js';
export { createEventReminders, reminderText, type EventReminders } from './event-reminders.js';
