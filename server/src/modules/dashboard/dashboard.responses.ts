import { shillingsSchema as shillings } from '@tukio/shared/internal-api';
import { z } from 'zod';
import { dateTimeString as dateTime, idString as id } from '../../lib/response-shapes.js';

/** Response body of the dashboard route, for the API document (the service's return value says the same in TypeScript). */

const shillingsTotal = z.object({ count: z.int(), amount: shillings });
const seats = z.int().nullable().meta({ description: 'Seats on sale; null means no limit.' });

export const eventDashboard = z.object({
  eventId: id,
  event: z.object({
    title: z.string(),
    date: dateTime.meta({ description: 'The start, Nairobi wall-clock time written as UTC (as everywhere in the events API).' }),
    status: z.enum(['pending', 'approved', 'cancelled']),
    isPaid: z.boolean(),
    ticketPrice: shillings,
  }),
  currency: z.literal('KES'),
  totals: z.object({
    ticketsSold: z.int().meta({ description: 'Valid tickets (cancelled, voided and transferred-away tickets excluded).' }),
    capacity: seats,
    checkedIn: z.int().meta({ description: 'Tickets scanned at the door.' }),
    grossRevenue: shillings.meta({ description: 'Successful M-Pesa payments.' }),
    refunded: shillingsTotal.meta({ description: 'Refunds paid out.' }),
    refundsPending: shillingsTotal.meta({ description: 'Refunds due or sent, not yet confirmed.' }),
    revenue: shillings.meta({ description: 'grossRevenue less refunded.amount.' }),
  }),
  salesByDay: z
    .array(
      z.object({
        day: z.string().meta({ description: 'Nairobi calendar day, YYYY-MM-DD.' }),
        tickets: z.int().meta({ description: 'Tickets issued that day (later cancellations do not unsell them; transfers are not sales).' }),
        revenue: shillings.meta({ description: 'Successful payments made that day, before refunds.' }),
      }),
    )
    .meta({ description: 'Every day from the first sale to the last (zeros between), oldest first; at most the last 366.' }),
  checkInsByHour: z
    .array(
      z.object({
        hour: z.string().meta({ description: 'Nairobi wall-clock hour, YYYY-MM-DDTHH:00.' }),
        checkedIn: z.int(),
      }),
    )
    .meta({ description: 'Every hour from the first check-in to the last (zeros between), oldest first; at most the last 168.' }),
  types: z
    .array(
      z.object({
        name: z.string(),
        price: shillings,
        sold: z.int().meta({ description: 'Valid tickets of this type.' }),
        reserved: z.int().meta({ description: 'Seats reserved by a deposit on an instalment plan, not paid in full yet (no tickets).' }),
        reservedPaid: shillings.meta({ description: 'What those reservations paid so far.' }),
        capacity: z.int().nullable().meta({ description: "The type's own seat limit; null: only the event's capacity (if any) limits it." }),
        revenue: shillings.meta({ description: "What its valid tickets were paid: each ticket's share of its payment, after promo codes." }),
      }),
    )
    .meta({ description: 'Per ticket type, in the order buyers see them (every event has at least one).' }),
  promoCodes: z
    .array(
      z.object({
        code: z.string(),
        uses: z.int().meta({ description: 'Paid orders that used it.' }),
        discount: shillings.meta({ description: 'Shillings it took off those orders.' }),
      }),
    )
    .meta({ description: 'Per promo code, oldest first; empty without codes.' }),
});
