/*
 * Payouts feature: an organiser's /payouts page: balances and each event's statement (server module payouts),
 * and "Where to be paid" (server module payout-accounts).
 */
export { PayoutsPage } from './components/payouts-page';
export { OrganiserPayoutsPage } from './components/organiser-payouts-page';
