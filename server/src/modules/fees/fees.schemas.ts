import { z } from 'zod';
import { idParam } from '../../lib/validate.js';

const FEE_SHILLINGS_MAX = 100_000;

const shillings = (field: string) =>
  z
    .int({ error: `${field} must be a whole number of shillings.` })
    .min(0, `${field} cannot be negative.`)
    .max(FEE_SHILLINGS_MAX, `${field} must be at most ${FEE_SHILLINGS_MAX.toLocaleString('en')} shillings.`);

/** A fee per paid ticket as the API speaks it: a percent (0-100, up to two decimals), fixed shillings and a minimum. */
export const feeBody = z
  .object({
    percent: z
      .number({ error: 'percent must be a number.' })
      .min(0, 'percent cannot be negative.')
      .max(100, 'percent must be at most 100.')
      .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-9, 'percent takes at most two decimals.'),
    fixed: shillings('fixed'),
    minimum: shillings('minimum'),
  })
  .strict()
  .meta({ description: 'A platform fee per paid ticket: `percent` of its price (0-100, two decimals at most) + `fixed` shillings, at least `minimum` shillings.' });

export type FeeInput = z.infer<typeof feeBody>;

/** PUT /api/admin/events/:id/fee: the event's own fee, or null to go back to the platform's. */
export const eventFeeBody = z.object({ override: feeBody.nullable() }).strict();

export const eventParams = z.object({ id: idParam('Event id') });
