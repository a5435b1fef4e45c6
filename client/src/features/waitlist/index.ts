/*
 * Waitlist feature: on a sold-out event's page, the attendee's place in line (join, wait, a seat held for
 * them, leave) and, for its organiser, the list. The route reads the place with useWaitlistPlace and gives
 * its seatsAvailable to the ticket box (a held seat can be bought there) and the place to WaitlistBox.
 */
export { WaitlistBox } from './components/waitlist-box';
export type { WaitlistBoxProps } from './components/waitlist-box';
export { WaitlistPanel } from './components/waitlist-panel';
export { useWaitlistPlace } from './hooks/use-waitlist-place';
export type { WaitlistPlace } from './api/waitlist-api';
