import { z } from 'zod';
import { pageSchema } from '../../lib/keyset-page.js';
import { dateTimeString as dateTime, idString as id } from '../../lib/response-shapes.js';

/** Response bodies of the events routes, for the API document (the service's DTOs say the same in TypeScript). */


/** One changed field, as the organiser proposed it, beside the published value. */
const fieldChange = z.object({
  field: z.enum(['title', 'description', 'image', 'date', 'location', 'price']),
  from: z.union([z.string(), z.number()]).nullable().meta({ description: 'The published value (a date as ISO, a price in shillings, 0 = free, an image as its URL).' }),
  to: z.union([z.string(), z.number()]).nullable().meta({ description: 'The proposed value, in the same form.' }),
});

export const pendingChange = z
  .object({
    eventId: id,
    status: z.enum(['pending', 'rejected']).meta({ description: 'Waiting for review, or rejected (kept for the organiser until the next edit or a withdrawal).' }),
    pausesSales: z.boolean().meta({ description: 'The changes move the date or place or raise the price: new purchases and registrations are refused until they are decided.' }),
    proposedAt: dateTime,
    decidedAt: dateTime.nullable(),
    rejectReason: z.string().nullable(),
    changes: z.array(fieldChange),
  })
  .meta({ id: 'EventPendingChange' });

/** One date of an event series (docs/decisions/event-series.md). */
export const eventDateView = z
  .object({
    _id: id,
    startsAt: dateTime.meta({ description: 'Wall-clock time as UTC, like an event\'s `date`.' }),
    endsAt: dateTime.nullable(),
    capacity: z.int().nullable().meta({ description: 'Seats on this date; null: no limit of its own.' }),
    status: z.enum(['active', 'cancelled']),
  })
  .meta({ id: 'EventDate' });

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
    feeMode: z
      .literal('on_top')
      .optional()
      .meta({ description: 'Present when buyers pay the platform fee on top of the ticket price; absent, it comes out of the price (the default).' }),
    ticketsSold: z.int().optional().meta({ description: 'Valid tickets issued (void ones hold no seat).' }),
    seatsLeft: z.int().nullable().optional(),
    dates: z.array(eventDateView).optional().meta({ description: 'Only on an event series: every date, cancelled ones included, earliest first.' }),
    nextDate: eventDateView.nullable().optional().meta({ description: 'Only on an event series: the next active date not started yet (null when none is left).' }),
    createdAt: dateTime.optional(),
    reReview: z.boolean().optional().meta({ description: 'After an edit: true when the change sent the event back to review.' }),
    msg: z.string().optional().meta({ description: "After an edit whose changes wait for review (or an approval): what to tell the organiser (or the admin)." }),
    pendingChange: pendingChange
      .nullable()
      .optional()
      .meta({ description: "After the organiser's edit of a published event: the changes waiting for review (or null), the published version staying live." }),
    holdersNotified: z.int().optional().meta({ description: 'After approving changes: how many ticket holders are emailed because the date or place moved.' }),
  })
  .meta({ id: 'Event' });

export const pendingChangeAnswer = z.object({ pendingChange: pendingChange.nullable(), msg: z.string().optional() });

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
  .omit({ registeredUsers: true, reReview: true, msg: true, pendingChange: true, holdersNotified: true })
  .meta({ id: 'ListedEvent', description: 'An event in a paged list: as `Event`, without `registeredUsers` (which grows with the attendees).' });

export const listedEventPage = pageSchema(listedEvent);

export const adminEventPage = listedEventPage.extend({
  counts: z
    .object({ pending: z.int(), approved: z.int(), cancelled: z.int(), all: z.int() })
    .meta({ description: 'How many events of each status the same filter (`user`, `q`) holds, whatever `status` is.' }),
});

export const pendingChangeList = z.object({
  items: z.array(pendingChange.extend({ proposedBy: id.meta({ description: "The organiser's user id." }), event: listedEvent.meta({ description: 'The published version.' }) })),
});
