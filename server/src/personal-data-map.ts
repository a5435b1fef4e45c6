import { composePersonalDataMap } from './lib/personal-data.js';
import { apiKeysPersonalData } from './modules/api-keys/index.js';
import { authPersonalData } from './modules/auth/index.js';
import { chatPersonalData } from './modules/chat/index.js';
import { checkoutPersonalData } from './modules/checkout/index.js';
import { checkoutQuestionsPersonalData } from './modules/checkout-questions/index.js';
import { communityPersonalData } from './modules/community/index.js';
import { contactPersonalData } from './modules/contact/index.js';
import { dataRightsPersonalData } from './modules/data-rights/index.js';
import { eventsPersonalData } from './modules/events/index.js';
import { ledgerPersonalData } from './modules/ledger/index.js';
import { feesPersonalData } from './modules/fees/index.js';
import { mailPersonalData } from './modules/mail/index.js';
import { payoutAccountsPersonalData } from './modules/payout-accounts/index.js';
import { payoutsPersonalData } from './modules/payouts/index.js';
import { moderationPersonalData } from './modules/moderation/index.js';
import { retentionPersonalData } from './modules/retention/index.js';
import { smsPersonalData } from './modules/sms/index.js';
import { teamsPersonalData } from './modules/teams/index.js';
import { ticketTypesPersonalData } from './modules/ticket-types/index.js';
import { ticketsPersonalData } from './modules/tickets/index.js';
import { waitlistPersonalData } from './modules/waitlist/index.js';
import { webhooksPersonalData } from './modules/webhooks/index.js';

/**
 * Every module's personal tables (lib/personal-data.ts, docs/decisions/data-rights.md): a module with a table about
 * users adds its `personal-data.ts` declaration here. test/personal-data-map.test.ts fails until it does.
 */
export const personalDataMap = composePersonalDataMap([
  apiKeysPersonalData,
  authPersonalData,
  chatPersonalData,
  checkoutPersonalData,
  checkoutQuestionsPersonalData,
  communityPersonalData,
  contactPersonalData,
  dataRightsPersonalData,
  eventsPersonalData,
  ledgerPersonalData,
  feesPersonalData,
  mailPersonalData,
  payoutAccountsPersonalData,
  payoutsPersonalData,
  moderationPersonalData,
  retentionPersonalData,
  smsPersonalData,
  teamsPersonalData,
  ticketTypesPersonalData,
  ticketsPersonalData,
  waitlistPersonalData,
  webhooksPersonalData,
]);
