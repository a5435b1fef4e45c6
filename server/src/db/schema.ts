/**
 * Every table, gathered for drizzle-kit (drizzle.config.ts generates the migrations from this file) and for
 * the typed database (database.ts). Each table lives in the schema file of the module that writes it; a
 * module reads another's tables only as docs/decisions/server-boundaries.md ("Tables") says.
 */
export * from '../modules/auth/auth.schema.js';
export * from '../modules/chat/chat.schema.js';
export * from '../modules/checkout/payments.schema.js';
export * from '../modules/checkout/refunds.schema.js';
export * from '../modules/community/community.schema.js';
export * from '../modules/contact/contact.schema.js';
export * from '../modules/events/events.schema.js';
export * from '../modules/fees/fees.schema.js';
export * from '../modules/ledger/ledger.schema.js';
export * from '../modules/mail/mail.schema.js';
export * from '../modules/moderation/moderation.schema.js';
export * from '../modules/payout-accounts/payout-accounts.schema.js';
export * from '../modules/payouts/payouts.schema.js';
export * from '../modules/sms/sms.schema.js';
export * from '../modules/ticket-types/ticket-types.schema.js';
export * from '../modules/tickets/tickets.schema.js';
export * from '../modules/waitlist/waitlist.schema.js';
export * from '../modules/data-rights/data-rights.schema.js';
export * from '../modules/retention/retention.schema.js';
export * from '../modules/api-keys/api-keys.schema.js';
export * from '../modules/webhooks/webhooks.schema.js';
export * from '../modules/checkout/reconciliation.schema.js';
export * from '../modules/checkout-questions/checkout-questions.schema.js';
export * from '../modules/teams/teams.schema.js';
