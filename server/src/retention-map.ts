import { composeRetentionMap } from './lib/retention.js';
import { authRetention } from './modules/auth/index.js';
import { checkoutRetention } from './modules/checkout/index.js';
import { checkoutQuestionsRetention } from './modules/checkout-questions/index.js';
import { teamsRetention } from './modules/teams/index.js';
import { ticketsRetention } from './modules/tickets/index.js';
import { waitlistRetention } from './modules/waitlist/index.js';

/**
 * What every module erases once an event's retention ends (lib/retention.ts, docs/decisions/data-rights.md): a
 * module with phones, device names or answers on an event's rows adds its `retention.ts` here.
 * test/retention-map.test.ts fails until it does.
 */
export const retentionMap = composeRetentionMap([authRetention, checkoutRetention, checkoutQuestionsRetention, teamsRetention, ticketsRetention, waitlistRetention]);
