import { sql } from 'drizzle-orm';
import type { RetentionDeclaration } from '../../lib/retention.js';

/**
 * What the tickets module erases once an event's retention ends (lib/retention.ts): the names staff gave the
 * gate devices that scanned its tickets. Who was admitted and when stays (attendance figures).
 */
export const ticketsRetention: RetentionDeclaration = {
  rows: [
    { table: 'tickets', about: "The event's tickets: the gate device's name goes; check-in time stays.", erase: { checked_in_device: sql`null` }, rows: ({ eventId }) => sql`event_id = ${eventId}` },
    {
      table: 'checkin_scans',
      about: "The event's door scans: the device name goes; scan times stay.",
      erase: { device: sql`null` },
      rows: ({ eventId }) => sql`ticket_id in (select id from tickets where event_id = ${eventId})`,
    },
  ],
};
