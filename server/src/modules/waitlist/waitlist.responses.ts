import { z } from 'zod';
import { waitlistEntries } from './waitlist.schema.js';
import { dateTimeString as dateTime, idString as id } from '../../lib/response-shapes.js';

/** Response bodies of the waitlist routes, for the API document. */

const status = z.enum(waitlistEntries.status.enumValues).meta({
  description: 'waiting; offered (seats held until `offerExpiresAt`); accepted (got a ticket); expired (offer ran out and passed on); left; closed (event cancelled or over).',
});

export const place = z.object({
  eventId: id,
  seatsAvailable: z.int().nullable().meta({ description: 'Seats this person can buy now (their own offer included); null when the event has no seat limit.' }),
  waiting: z.int().meta({ description: 'People waiting (not counting live offers).' }),
  entry: z
    .object({
      _id: id,
      status,
      quantity: z.int(),
      position: z.int().nullable().meta({ description: '1 = next to be offered; null unless waiting.' }),
      offeredQuantity: z.int().nullable(),
      offeredAt: dateTime.nullable(),
      offerExpiresAt: dateTime.nullable(),
      joinedAt: dateTime,
    })
    .nullable()
    .meta({ description: 'The open place, else the latest one that ended, else null.' }),
});

export const organiserList = z.object({
  eventId: id,
  length: z.int().meta({ description: 'People waiting.' }),
  offered: z.int(),
  accepted: z.int(),
  expired: z.int(),
  left: z.int(),
  entries: z.array(
    z.object({
      _id: id,
      username: z.string(),
      quantity: z.int(),
      status,
      offeredQuantity: z.int().nullable(),
      offerExpiresAt: dateTime.nullable(),
      joinedAt: dateTime,
    }),
  ),
});
