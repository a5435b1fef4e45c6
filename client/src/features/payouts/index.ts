/*
 * Payouts feature: an organiser's /payouts page. Today its "Where to be paid" section (server module
 * payout-accounts); more sections (balances, statements) are added beside it.
 */
export { PayoutsPage } from './components/payouts-page';
