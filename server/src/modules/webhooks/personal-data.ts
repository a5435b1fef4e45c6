import type { PersonalDataDeclaration } from '../../lib/personal-data.js';

/** Webhooks in the personal-data map: an organiser's endpoint addresses are theirs; the signing secret never leaves. */
export const webhooksPersonalData: PersonalDataDeclaration = {
  tables: [
    {
      table: 'webhook_endpoints', onErase: 'delete',
      about: 'The webhook addresses you registered for your events and the facts each one receives.',
      subject: { user_id: 'id' },
      personal: {},
      secret: ['secret'],
    },
    {
      table: 'webhook_deliveries', onErase: 'delete',
      about: 'What Tukio sent to your webhook addresses: the fact (ids, types and amounts of your events’ orders, tickets, refunds and payouts) and how sending went.',
      subject: { user_id: 'id' },
      personal: {},
    },
  ],
};
