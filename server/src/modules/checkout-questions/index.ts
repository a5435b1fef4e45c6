/**
 * The checkout-questions module's public face (docs/decisions/server-boundaries.md, docs/decisions/checkout-questions.md):
 * what organisers ask buyers at checkout, the buyers' answers, and the ports checkout (check and keep answers) and
 * tickets (answers on the attendee list, its CSV and the gate list) are given in app.ts.
 */
export { createCheckoutQuestionsRouter, createGuestOrderAnswersRouter, createOrderAnswersRouter } from './checkout-questions.routes.js';
export { createCheckoutQuestionsService, type CheckoutQuestionsService } from './checkout-questions.service.js';
export { checkoutQuestionsPersonalData } from './personal-data.js';
export { checkoutQuestionsRetention } from './retention.js';
