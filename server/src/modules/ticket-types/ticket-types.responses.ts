import { z } from 'zod';
import { dateTimeString as dateTime, idString as id } from '../../lib/response-shapes.js';

/** Response bodies of the ticket type and promo code routes, for the API document. */

export const ticketTypesView = z.object({
  eventId: id,
  capacity: z.int().nullable().meta({ description: 'The event-wide capacity; null when only the types (or nothing) limit it.' }),
  seatsLeft: z.int().nullable().meta({ description: 'Seats left under the event-wide capacity; null without one.' }),
  ticketTypes: z.array(
    z.object({
      _id: id,
      name: z.string(),
      price: z.int().meta({ description: 'Whole shillings.' }),
      capacity: z.int().nullable(),
      salesStart: dateTime.nullable().meta({ description: 'Wall-clock time (as event dates), or null: on sale from publication.' }),
      salesEnd: dateTime.nullable(),
      maxPerOrder: z.int(),
      instalments: z
        .object({
          depositPercent: z.int(),
          dueDate: dateTime.meta({ description: 'Wall-clock time (as event dates) by which the rest is paid.' }),
          cancellationFee: z.int().meta({ description: 'Shillings kept per order when the rest is not paid by the due date.' }),
          depositAmount: z.int().meta({ description: 'The deposit of one ticket at its price (fees aside).' }),
        })
        .nullable()
        .meta({ description: 'Paying in parts (docs/decisions/instalments.md); null: paid in one go.' }),
      sold: z.int(),
      reserved: z.int().meta({ description: 'Seats of reservations: a deposit paid, the rest not yet (tickets not issued).' }),
      seatsLeft: z.int().nullable().meta({ description: 'What can still be bought of this type (its own and the event-wide capacity); null when unlimited.' }),
      state: z.enum(['on_sale', 'not_started', 'ended', 'sold_out']),
      dateId: id.optional().meta({ description: 'On an event series: the one date this type is sold for.' }),
      allDates: z.literal(true).optional().meta({ description: 'On an event series: a pass valid on every date (it takes a seat on each).' }),
    }),
  ),
});

export const quoteView = z.object({
  eventId: id,
  quantity: z.int(),
  subtotal: z.int().meta({ description: 'Before the promo code.' }),
  discount: z.int(),
  amount: z.int().meta({ description: 'What the M-Pesa prompt will ask for (the tickets, plus the fee when the buyer pays it on top).' }),
  promoCode: z.string().nullable(),
  fee: z.int().meta({ description: 'The platform fee inside `amount` (docs/decisions/fees.md); 0 without one.' }),
  feeMode: z.enum(['absorbed', 'on_top']).meta({ description: '`on_top`: the buyer pays the fee beside the tickets; `absorbed`: it comes out of their price.' }),
});

export const promoCodeView = z.object({
  _id: id,
  code: z.string(),
  kind: z.enum(['percent', 'fixed']),
  value: z.int().meta({ description: 'Percent off, or shillings off each ticket it applies to.' }),
  maxUses: z.int().nullable(),
  uses: z.int().meta({ description: 'Orders paid with it, plus live holds.' }),
  validFrom: dateTime.nullable(),
  validUntil: dateTime.nullable(),
  ticketTypeIds: z.array(id).nullable(),
  createdAt: dateTime,
});

export const promoCodeRemoved = z.object({ deleted: z.boolean(), ended: z.boolean(), msg: z.string() });
