/**
 * The checkout module's public face (docs/decisions/server-boundaries.md): everything money does on the API
 * server, one handler per use case: quote, hold seats, record the push, settle a result, expire holds, cancel
 * (a ticket, an event) and refund; the payment history buyers read; guest checkout and ticket reminders.
 */
export { auditSuccessClaims } from './payments-audit.js';
export { createGuestTicketsRouter, createInternalPaymentsRouter, createTransactionsRouter } from './payments.routes.js';
export { createAdminUnmatchedPaymentsRouter } from './paybill.routes.js';
export { createGuestCheckout, type GuestCheckout } from './guest-checkout.service.js';
export { createGuestTicketLinks } from './guest-ticket-links.js';
export { createPaymentsService, type PaymentsService } from './payments.service.js';
export { createEventReminders, reminderText, type EventReminders } from './event-reminders.js';
export { createPaymentPasses, type PaymentPasses } from './payment-passes.js';
export { createEventCancellation } from './cancel-event.handler.js';
export { createEventSeries, type EventSeriesService } from './event-series.handler.js';
export { createEventSeriesRouter } from './event-series.routes.js';
export { createAdminRefundsRouter, createEventCancellationRouter, createInternalRefundsRouter, createSelfCancelRouter } from './refunds.routes.js';
export { createRefundsService } from './refunds.service.js';
export { createPullGateway, createReconciliation, type PullGateway, type Reconciliation } from './reconciliation.js';
export { createAdminReconciliationRouter } from './reconciliation.routes.js';
export { createRefundGateway, createRefundsJob, type RefundGateway, type RefundsJob } from './refunds-job.js';
export { createSelfCancel } from './cancel-tickets.handler.js';
/** Tables other modules may read in a join, never write (docs/decisions/server-boundaries.md, "Tables"). */
export { orderItems, orders, payments } from './payments.schema.js';
export { refunds } from './refunds.schema.js';
export { orderQuestions } from './order-questions.js';
export { eventOrders } from './event-orders.js';
export { createInternalCaller, createPaymentGateway, GatewayUnreachable, parsedBody, PushOutcomeUnknown } from './payment-gateway.js';
export { createRequestGateway, type RequestGateway, type SendOutcome } from './request-gateway.js';
export { createStartCheckoutHandler } from './start-checkout.handler.js';
export { createConfirmPaymentHandler } from './confirm-payment.handler.js';
export { createPayRouter } from './pay.routes.js';
export { attachPaymentUpdates, PAYMENT_UPDATES_NAMESPACE } from './payment-updates.socket.js';
export { createInstalments, type Instalments } from './instalments.service.js';
export { createReservationsRouter } from './reservations.routes.js';
export { depositFor } from './instalment-plan.js';
export { checkoutPersonalData } from './personal-data.js';
export { checkoutRetention } from './retention.js';
