import { sql } from 'drizzle-orm';
import type { RetentionDeclaration } from '../../lib/retention.js';

/** What the waitlist erases once an event's retention ends (lib/retention.ts): the phones its offer SMS went to. */
export const waitlistRetention: RetentionDeclaration = {
  rows: [
    {
      table: 'sms_messages',
      about: "The event's waitlist-offer SMS: the phone goes; purpose, status and dates stay.",
      erase: { phone: sql`''` },
      // Offers are keyed `waitlist-offer:<entry>:<offered at>` (waitlist.service.ts).
      rows: ({ eventId }) => sql`dedupe_key like 'waitlist-offer:%' and split_part(dedupe_key, ':', 2) in (select id from waitlist_entries where event_id = ${eventId})`,
    },
  ],
};
