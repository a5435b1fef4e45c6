import { sql } from 'drizzle-orm';
import type { RetentionDeclaration } from '../../lib/retention.js';

const ofEvent = ({ eventId }: { eventId: string }) => sql`event_id = ${eventId}`;

/**
 * What checkout erases once an event's retention ends (lib/retention.ts): the buyers' phones and guest emails on
 * its orders, payments and refunds, and the phones its reminder SMS went to. Amounts, statuses, dates and M-Pesa
 * receipts stay: they are the books. The NOT NULL phones become '' (the columns keep their constraint).
 */
export const checkoutRetention: RetentionDeclaration = {
  rows: [
    { table: 'orders', about: "The event's orders: the phone that paid and a guest's email go; amounts, fees and dates stay.", erase: { phone: sql`null`, guest_email: sql`null` }, rows: ofEvent },
    { table: 'payments', about: "The event's M-Pesa payments: the phone goes; amount, status, receipt and dates stay.", erase: { phone: sql`''` }, rows: ofEvent },
    { table: 'refunds', about: "The event's refunds: the phone goes; amount, status, receipt and dates stay.", erase: { phone: sql`''` }, rows: ofEvent },
    {
      table: 'unmatched_payments',
      about: "Paybill payments an admin placed on the event's orders: the paying number goes; amount, receipt and dates stay.",
      erase: { msisdn: sql`''` },
      rows: ({ eventId }) => sql`payment_id in (select id from payments where event_id = ${eventId})`,
    },
    {
      table: 'sms_messages',
      about: "The event's reminder SMS: the phone goes; purpose, status and dates stay.",
      erase: { phone: sql`''` },
      // Reminders are keyed `reminder:<event>:<user>` (event-reminders.ts).
      rows: ({ eventId }) => sql`dedupe_key like ${`reminder:${eventId}:%`}`,
    },
  ],
};
