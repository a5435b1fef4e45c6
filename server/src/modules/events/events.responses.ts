import { z } from 'zod';
import { pageSchema } from '../../lib/keyset-page.js';
import { dateTimeString as dateTime, idString as id } from '../../lib/response-shapes.js';

/** Response bodies of the events routes, for the API document (the service's DTOs say the same in TypeScript). */


export const eventResponse = z
  .object({
    _id: id,
    title: z.string(),
    description: z.string(),
    date: dateTime,
    startDate: dateTime.meta({ description: 'Same instant as date.' }),
    location: z.string(),
    image: z.string().nullable().meta({ description: 'Absolute URL or null.' }),
    status: z.enum(['approved', 'pending', 'cancelled']).meta({ description: 'A cancelled event is final: its tickets are void and its buyers refunded.' }),
    cancelReason: z.string().nullable().meta({ description: 'Why the event was cancelled (null unless cancelled).' }),
    cancelledAt: dateTime.nullable().meta({ description: 'When the event was cancelled (null unless cancelled).' }),
    isPaid: z.boolean(),
    ticketPrice: z.int().meta({ description: "Whole shillings: the cheapest ticket type's price." }),
    ticketPriceMax: z.int().meta({ description: 'The dearest ticket type\'s price; above `ticketPrice` when prices differ ("from Ksh.X").' }),
    capacity: z.int().nullable(),
    registeredUsers: z.array(id),
    user: id.meta({ description: "The organiser's user id." }),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    openedCount: z.int(),
    refundPolicy: z
      .object({ kind: z.enum(['none', 'full', 'partial']), percent: z.int().nullable(), untilHours: z.int() })
      .meta({ description: 'What a holder gets back when cancelling their own tickets: none, full, or partial (`percent`), until `untilHours` before the start.' }),
    ticketsSold: z.int().optional().meta({ description: 'Valid tickets issued (void ones hold no seat).' }),
    seatsLeft: z.int().nullable().optional(),
    createdAt: dateTime.optional(),
    reReview: z.boolean().optional().meta({ description: 'After an edit: true when the change sent the event back to review.' }),
    msg: z.string().optional().meta({ description: 'After an edit that sent the event back to review: what to tell the organiser.' }),
  })
  .meta({ id: 'Event' });

export const eventList = z.array(eventResponse);

export const eventPage = z.object({
  items: eventList,
  total: z.int().meta({ description: 'Exact up to 1,000 matches; past that an estimate (`totalIsEstimate`).' }),
  page: z.int(),
  limit: z.int(),
  pages: z.int(),
  totalIsEstimate: z.boolean().optional().meta({ description: 'True when `total` is an estimate (many matches).' }),
  nextCursor: z.string().nullable().optional().meta({ description: 'Pass as `cursor` for the next page; null on the last page.' }),
  correctedQuery: z.string().optional().meta({ description: 'The words searched for when a typed word was a typo, replaced by the known word most like it.' }),
});

export const shareCounts = z.object({
  msg: z.string(),
  shares: z.object({ whatsapp: z.int(), twitter: z.int(), instagram: z.int() }),
});

export const deleted = z.object({
  msg: z.string(),
  cancelled: z.literal(true).optional().meta({ description: 'The event had orders, so it was cancelled (its buyers refunded) instead of deleted.' }),
});

export const listedEvent = eventResponse
  .omit({ registeredUsers: true, reReview: true, msg: true })
  .meta({ id: 'ListedEvent', description: 'An event in a paged list: as `Event`, without `registeredUsers` (which grows with the attendees).' });

export const listedEventPage = pageSchema(listedEvent);

export const adminEventPage = listedEventPage.extend({
  counts: z
    .object({ pending: z.int(), approved: z.int(), cancelled: z.int(), all: z.int() })
    .meta({ description: 'How many events of each status the same filter (`user`, `q`) holds, whatever `status` is.' }),
});
