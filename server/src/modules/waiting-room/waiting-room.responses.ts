import { z } from 'zod';
import { dateTimeString as dateTime, idString as id } from '../../lib/response-shapes.js';

/** Response bodies of the waiting-room route, for the API document. */
export const queuePlace = z.object({
  eventId: id,
  inLine: z.boolean().meta({ description: 'You have a number in this sale’s line (you tried to buy while people waited).' }),
  admitted: z.boolean().meta({ description: 'Your turn: a purchase now holds seats (until `turnEndsAt`).' }),
  position: z.int().nullable().meta({ description: 'People ahead of you, you included; 0 once admitted; null when not in line.' }),
  etaSeconds: z.int().meta({ description: 'The wait left at the current admission rate.' }),
  turnEndsAt: dateTime.nullable(),
  pollAfterMs: z.int().meta({ description: 'When to ask again.' }),
  soldOut: z.boolean().meta({ description: 'No seats left to wait for (held seats may still come back: the waitlist tells).' }),
});
