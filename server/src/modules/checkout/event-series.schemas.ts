import { z } from 'zod';
import { idParam, text } from '../../lib/validate.js';
import { CAPACITY_MAX, numeric, optionalWallClock } from '../events/index.js';

export const seriesParams = z.object({ id: idParam('Event id') });
export const dateParams = z.object({ id: idParam('Event id'), dateId: idParam('Date id') });

const blankToNull = (value: unknown) => (value === undefined || value === null || (typeof value === 'string' && value.trim() === '') ? null : value);
const capacity = z.preprocess(
  blankToNull,
  numeric('Capacity').pipe(z.number().int('Capacity must be a whole number.').min(1, 'Capacity must be at least 1.').max(CAPACITY_MAX, `Capacity must be at most ${CAPACITY_MAX}.`)).nullable(),
);
const startsAt = optionalWallClock('Date').pipe(z.date({ error: 'Date is required.' }));

/** A new date of a series: when it starts (wall-clock, like an event's date), optionally ends, and its seats. */
export const newDateBody = z
  .object({ startsAt, endsAt: optionalWallClock('End').default(null), capacity: capacity.default(null) })
  .refine((date) => !date.endsAt || date.endsAt > date.startsAt, { message: 'The end must be after the start.', path: ['endsAt'] });

/** A date's changes: only the fields sent change. */
export const dateChangesBody = z.object({ startsAt: startsAt.optional(), endsAt: optionalWallClock('End').optional(), capacity: capacity.optional() });

/** Removing a date: `confirm=true` is required when it has orders (it is then cancelled and its buyers refunded). */
export const removeDateQuery = z.object({
  confirm: z.enum(['true', 'false'], { error: 'confirm must be true or false.' }).default('false'),
  reason: text('reason', 500, 3).optional(),
});
