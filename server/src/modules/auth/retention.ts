import { sql } from 'drizzle-orm';
import type { RetentionDeclaration } from '../../lib/retention.js';

/**
 * What auth erases once an event's retention ends (lib/retention.ts): a guest buyer's shadow account is named
 * after their phone (`guest-<phone>`, `<phone>@guest.invalid`, guest_phone); when every event they bought for
 * is shredded, the phone goes from all three (each becomes unique per account, as their indexes want). The
 * account stays, as its orders and tickets point at it; a later purchase from that phone makes a new one.
 */
export const authRetention: RetentionDeclaration = {
  rows: [
    {
      table: 'users',
      about: "Guest buyers' accounts: their phone number goes once every event they bought for is past retention.",
      erase: {
        guest_phone: sql`'erased:' || id`,
        username: sql`'guest-' || id`,
        username_skeleton: sql`'guest-' || id`,
        email: sql`id || '@guest.invalid'`,
      },
      rows: ({ eventId, shredded }) => sql`guest_phone is not null and guest_phone not like 'erased:%'
        and id in (select user_id from orders where event_id = ${eventId})
        and not exists (select 1 from orders o where o.user_id = users.id and not ${shredded(sql`o.event_id`)})`,
    },
  ],
};
