/* Guest tickets feature: the ticket page a guest buyer's SMS links to (/t/:token). */
export { GuestTicketsPage, type TicketQrComponent } from './components/guest-tickets-page';
