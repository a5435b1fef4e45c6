/**
 * The payout-accounts module's public face (docs/decisions/payout-accounts.md): where organisers are paid.
 * The payouts job asks `payoutDestination(organiserId, now)` before each payout.
 */
export { createPayoutAccountsRouter } from './payout-accounts.routes.js';
export { createPayoutAccountsService, type PayoutAccountsService } from './payout-accounts.service.js';
export { payoutAccountsPersonalData } from './personal-data.js';
