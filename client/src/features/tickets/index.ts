/*
 * Tickets feature: the event page's ticket box (free registration, M-Pesa checkout loaded on demand),
 * the door check-in page, the profile's "My Tickets" and transaction history, and the staff check.
 */
export { TicketBox, markRegistered, PAST_EVENT_MESSAGE } from './components/ticket-box';
export type { TicketBoxProps } from './components/ticket-box';
export { CheckInPage } from './components/check-in-page';
export type { LoadCheckInEvent } from './components/check-in-page';
export { MyTickets } from './components/my-tickets';
export { MyReservations } from './components/my-reservations';
export { TransactionsOverlay } from './components/transactions-overlay';
export { TicketQr } from './components/ticket-qr';
export { useStaffAccess } from './hooks/use-staff-access';
export { PromoCodesPanel } from './components/promo-codes-panel';
export { CheckoutQuestionsPanel } from './components/checkout-questions-panel';
export { AnswersEditor, GuestAnswersEditor } from './components/answers-editor';
