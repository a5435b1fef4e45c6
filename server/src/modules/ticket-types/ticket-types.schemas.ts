import { MAX_TICKETS_PER_ORDER, TICKET_PRICE_MAX } from '@tukio/shared/limits';
import { orderItemsSchema, promoCodeSchema, quantitySchema } from '@tukio/shared/internal-api';
import { z } from 'zod';
import { idParam, text } from '../../lib/validate.js';
import { CAPACITY_MAX, numeric, optionalWallClock } from '../events/index.js';

export const TICKET_TYPES_MAX = 10;
export const eventParams = z.object({ id: idParam('Event id') });
export const promoParams = z.object({ id: idParam('Event id'), codeId: idParam('Promo code id') });

const blankToNull = (value: unknown) => (value === undefined || value === null || (typeof value === 'string' && value.trim() === '') ? null : value);

/**
 * An instalment plan as the organiser sets it: the deposit's percent of the price, the due date of the rest (a wall-clock
 * time; before the event starts, checked with the event), and a cancellation fee kept when the balance is not paid
 * (below the deposit, checked with the price: the service knows both).
 */
const instalmentPlanInput = z.object({
  depositPercent: numeric('Deposit percent').pipe(z.number().int('Deposit percent must be a whole number.').min(10, 'The deposit is at least 10%.').max(90, 'The deposit is at most 90%.')),
  dueDate: optionalWallClock('Due date').pipe(z.date({ error: 'Give the date the rest is due.' })),
  cancellationFee: z.preprocess(blankToNull, numeric('Cancellation fee').pipe(z.number().int('The cancellation fee is whole shillings.').min(0, 'The cancellation fee is at least 0.')).nullable()).transform((value) => value ?? 0),
});

/** One ticket type as the organiser sets it; `_id` names an existing one to change (absent: a new one). */
const ticketTypeInput = z
  .object({
    _id: idParam('Ticket type id').optional(),
    name: text('Ticket type name', 60),
    price: numeric('Price').pipe(
      z
        .number()
        .min(0, 'Price must be at least 0.')
        .max(TICKET_PRICE_MAX, `Price must be at most ${TICKET_PRICE_MAX}.`)
        .refine(Number.isInteger, 'Price must be whole shillings: M-Pesa takes no cents (for example 350, not 350.50).'),
    ),
    capacity: z.preprocess(blankToNull, numeric('Capacity').pipe(z.number().int('Capacity must be a whole number.').min(1, 'Capacity must be at least 1.').max(CAPACITY_MAX, `Capacity must be at most ${CAPACITY_MAX}.`)).nullable()).default(null),
    salesStart: optionalWallClock('Sales start').default(null),
    salesEnd: optionalWallClock('Sales end').default(null),
    maxPerOrder: z
      .preprocess(blankToNull, numeric('Maximum per order').pipe(z.number().int('Maximum per order must be a whole number.').min(1, 'Maximum per order must be at least 1.').max(MAX_TICKETS_PER_ORDER, `Maximum per order must be at most ${MAX_TICKETS_PER_ORDER}.`)).nullable())
      .transform((value) => value ?? MAX_TICKETS_PER_ORDER),
    /** Paying in parts (docs/decisions/instalments.md); absent or null: paid in one go. */
    instalments: instalmentPlanInput.nullable().default(null),
    /** On an event series (docs/decisions/event-series.md): the one date this type is sold for (a day ticket)... */
    dateId: z.preprocess(blankToNull, idParam('Date id').nullable()).default(null),
    /** ...or a pass valid on every date, taking a seat on each. Neither: sold for the date the buyer picks. */
    allDates: z.boolean({ error: 'allDates must be true or false.' }).default(false),
  })
  .refine((type) => !(type.allDates && type.dateId), { message: 'A pass for all dates is not tied to one date.', path: ['dateId'] })
  .refine((type) => !type.salesStart || !type.salesEnd || type.salesStart < type.salesEnd, { message: 'Sales end must be after sales start.', path: ['salesEnd'] });

export type TicketTypeInput = z.infer<typeof ticketTypeInput>;

export const ticketTypesBody = z.object({
  ticketTypes: z
    .array(ticketTypeInput, { error: 'ticketTypes must be a list.' })
    .min(1, 'An event sells at least one ticket type.')
    .max(TICKET_TYPES_MAX, `At most ${TICKET_TYPES_MAX} ticket types.`)
    .refine((types) => new Set(types.map((type) => type.name.toLowerCase())).size === types.length, 'Give each ticket type its own name.'),
});

export const promoCodeBody = z
  .object({
    code: promoCodeSchema.pipe(z.string().min(3, 'Promo codes are at least 3 characters.')),
    kind: z.enum(['percent', 'fixed'], { error: 'kind must be percent or fixed.' }),
    value: numeric('Value').pipe(z.number().int('Value must be a whole number.').min(1, 'Value must be at least 1.').max(TICKET_PRICE_MAX, `Value must be at most ${TICKET_PRICE_MAX}.`)),
    maxUses: z.preprocess(blankToNull, numeric('Maximum uses').pipe(z.number().int('Maximum uses must be a whole number.').min(1, 'Maximum uses must be at least 1.').max(CAPACITY_MAX)).nullable()).default(null),
    validFrom: optionalWallClock('Valid from').default(null),
    validUntil: optionalWallClock('Valid until').default(null),
    /** Limits the code to these types of the event; absent or empty for all of them. */
    ticketTypeIds: z.array(idParam('Ticket type id')).max(TICKET_TYPES_MAX).nullable().default(null),
  })
  .refine((code) => code.kind !== 'percent' || code.value <= 100, { message: 'A percentage is at most 100.', path: ['value'] })
  .refine((code) => !code.validFrom || !code.validUntil || code.validFrom < code.validUntil, { message: 'Valid until must be after valid from.', path: ['validUntil'] });

export type PromoCodeInput = z.infer<typeof promoCodeBody>;

/** What a buyer is about to buy: the price is worked out on the server, as the purchase will be. */
export const quoteBody = z.object({
  items: orderItemsSchema.optional(),
  quantity: quantitySchema.default(1),
  promoCode: z.preprocess((value) => (value === '' || value === null ? undefined : value), promoCodeSchema.optional()),
  /** The date picked on an event series. */
  dateId: idParam('Date id').optional(),
});
