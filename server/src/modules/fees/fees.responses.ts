import { z } from 'zod';
import { idString as id } from '../../lib/response-shapes.js';

/** Response bodies of the fee routes, for the API document (the service's return values say the same in TypeScript). */

export const fee = z
  .object({ percent: z.number(), fixed: z.int(), minimum: z.int() })
  .meta({ description: 'A fee per paid ticket: `percent` of its price + `fixed` shillings, at least `minimum` shillings.' });

const setting = fee.extend({ setBy: id.nullable().meta({ description: 'The administrator, or null for the configuration of a fresh install.' }), setAt: z.string() });

export const platformFee = z.object({
  fee,
  history: z.array(setting).meta({ description: 'Every setting, newest first (the first is in force); kept, never edited.' }),
});

export const eventFee = z.object({
  eventId: id,
  feeMode: z.enum(['absorbed', 'on_top']).meta({ description: "The organiser's choice: buyers pay the fee on top, or it comes out of the ticket price." }),
  override: fee.nullable().meta({ description: "The event's own fee, or null when the platform's applies." }),
  fee: fee.meta({ description: 'The fee in force for the event.' }),
});
