import { EVENT_DESCRIPTION_MAX, EVENT_LOCATION_MAX, EVENT_TITLE_MAX, TICKET_PRICE_MAX } from '@tukio/shared/limits';
import { REFUND_PERCENT_MAX, REFUND_PERCENT_MIN, REFUND_POLICY_KINDS, REFUND_UNTIL_HOURS_MAX, type RefundPolicy } from '@tukio/shared/refund-policy';
import { z } from 'zod';
import { timePageQuery } from '../../lib/time-cursor.js';
import { idParam, text } from '../../lib/validate.js';
import { DAY_MS, parseDayOrWallClock, parseWallClock } from './event-dates.js';
import { FEE_MODES } from './events.schema.js';
import { decodeCursor } from './search-query.js';

export const IMAGE_URL_MAX = 2048;
export const CAPACITY_MAX = 1_000_000;
export const SHARE_PLATFORMS = ['whatsapp', 'twitter', 'instagram'] as const;
export type SharePlatform = (typeof SHARE_PLATFORMS)[number];

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** Form inputs arrive as numbers or numeric strings; anything else is refused with the field's name. */
export const numeric = (field: string) =>
  z.preprocess(
    (value) => (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value),
    z.number({ error: (issue) => (issue.input === undefined || issue.input === null ? `${field} is required.` : `${field} must be a number.`) }).finite(`${field} must be a number.`),
  );

const flag = (field: string) =>
  z.preprocess(
    (value) => (value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value),
    z.boolean({ error: `${field} must be true or false.` }),
  );

/** An optional wall-clock date-time (`YYYY-MM-DDTHH:mm`), e.g. when a ticket type's sales open; empty means none. */
export const optionalWallClock = (field: string) =>
  z.preprocess(
    (value) => (isBlank(value) ? null : value),
    z
      .string({ error: `${field} must be text.` })
      .transform((value, ctx) => {
        const date = parseWallClock(value);
        if (!date) {
          ctx.addIssue({ code: 'custom', message: `${field} must be a real date and time in the form YYYY-MM-DDTHH:mm.` });
          return z.NEVER;
        }
        return date;
      })
      .nullable(),
  );

export const eventDate = z
  .string({ error: (issue) => (issue.input === undefined || issue.input === null ? 'Date is required.' : 'Date must be text.') })
  .trim()
  .min(1, 'Date is required.')
  .transform((value, ctx) => {
    const date = parseWallClock(value);
    if (!date) {
      ctx.addIssue({ code: 'custom', message: 'Date must be a real date and time in the form YYYY-MM-DDTHH:mm.' });
      return z.NEVER;
    }
    return date;
  });

/**
 * Whole shillings: M-Pesa moves no cents, so a price such as 350.50 is refused with a message that says
 * so (it used to be rounded silently, and the organiser sold at a price they never typed).
 */
const ticketPrice = numeric('Ticket price').pipe(
  z
    .number()
    .min(0, 'Ticket price must be at least 0.')
    .max(TICKET_PRICE_MAX, `Ticket price must be at most ${TICKET_PRICE_MAX}.`)
    .refine(Number.isInteger, 'Ticket price must be whole shillings: M-Pesa takes no cents (for example 350, not 350.50).'),
);

const capacity = numeric('Capacity').pipe(
  z
    .number()
    .int('Capacity must be a whole number.')
    .min(1, 'Capacity must be at least 1.')
    .max(CAPACITY_MAX, `Capacity must be at most ${CAPACITY_MAX}.`),
);

const latitude = numeric('Latitude').pipe(z.number().min(-90, 'Latitude must be between -90 and 90.').max(90, 'Latitude must be between -90 and 90.'));
const longitude = numeric('Longitude').pipe(
  z.number().min(-180, 'Longitude must be between -180 and 180.').max(180, 'Longitude must be between -180 and 180.'),
);

/** A URL string or null; whether it points somewhere acceptable is checked by the service (it knows our public URL). */
const image = z.preprocess(
  (value) => (isBlank(value) ? null : value),
  z.string({ error: 'Image must be a URL or null.' }).trim().max(IMAGE_URL_MAX, `Image must be at most ${IMAGE_URL_MAX} characters.`).nullable(),
);

const optionalNull = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (isBlank(value) ? null : value), schema.nullable()).optional();

/**
 * What a holder gets back when cancelling their own tickets (@tukio/shared/refund-policy). `percent` is
 * required for a partial refund and ignored otherwise; `untilHours` defaults to 0 (until the start).
 */
export const refundPolicyBody = z
  .object({
    kind: z.enum(REFUND_POLICY_KINDS, { error: 'Refund policy must be none, full or partial.' }),
    percent: optionalNull(
      numeric('Refund percent').pipe(
        z
          .number()
          .int('Refund percent must be a whole number.')
          .min(REFUND_PERCENT_MIN, `Refund percent must be between ${REFUND_PERCENT_MIN} and ${REFUND_PERCENT_MAX}.`)
          .max(REFUND_PERCENT_MAX, `Refund percent must be between ${REFUND_PERCENT_MIN} and ${REFUND_PERCENT_MAX}.`),
      ),
    ),
    untilHours: numeric('Refund hours')
      .pipe(
        z
          .number()
          .int('Refund hours must be a whole number.')
          .min(0, `Refund hours must be between 0 and ${REFUND_UNTIL_HOURS_MAX}.`)
          .max(REFUND_UNTIL_HOURS_MAX, `Refund hours must be between 0 and ${REFUND_UNTIL_HOURS_MAX}.`),
      )
      .optional(),
  })
  .transform((value, ctx): RefundPolicy => {
    if (value.kind === 'partial' && (value.percent === undefined || value.percent === null)) {
      ctx.addIssue({ code: 'custom', path: ['percent'], message: `A partial refund needs a percent between ${REFUND_PERCENT_MIN} and ${REFUND_PERCENT_MAX}.` });
      return z.NEVER;
    }
    return {
      kind: value.kind,
      percent: value.kind === 'partial' ? (value.percent ?? null) : null,
      untilHours: value.kind === 'none' ? 0 : (value.untilHours ?? 0),
    };
  })
  .meta({ description: 'Self-cancel refund policy: `{kind: none|full|partial, percent (1-99, partial only), untilHours (0-720, before the start)}`.' });

/** Who pays the platform fee (docs/decisions/fees.md): optional; a new event absorbs it unless the organiser says `on_top`. */
const feeMode = z
  .enum(FEE_MODES, { error: 'Fee mode must be absorbed or on_top.' })
  .meta({ description: '`absorbed` (default): the platform fee comes out of the ticket price; `on_top`: buyers pay it beside the price.' });

export const createEventBody = z.object({
  title: text('Title', EVENT_TITLE_MAX),
  description: text('Description', EVENT_DESCRIPTION_MAX),
  date: eventDate,
  location: text('Location', EVENT_LOCATION_MAX),
  latitude: optionalNull(latitude),
  longitude: optionalNull(longitude),
  image: image.optional(),
  isPaid: flag('isPaid').optional(),
  ticketPrice: optionalNull(ticketPrice),
  capacity: optionalNull(capacity),
  refundPolicy: refundPolicyBody.optional(),
  feeMode: feeMode.optional(),
});

export type CreateEventInput = z.infer<typeof createEventBody>;

export const updateEventBody = z.object({
  title: text('Title', EVENT_TITLE_MAX).optional(),
  description: text('Description', EVENT_DESCRIPTION_MAX).optional(),
  date: eventDate.optional(),
  location: text('Location', EVENT_LOCATION_MAX).optional(),
  latitude: optionalNull(latitude),
  longitude: optionalNull(longitude),
  image: image.optional(),
  isPaid: flag('isPaid').optional(),
  ticketPrice: optionalNull(ticketPrice),
  capacity: optionalNull(capacity),
  refundPolicy: refundPolicyBody.optional(),
  feeMode: feeMode.optional(),
  status: z.enum(['approved', 'pending'], { error: 'Status must be approved or pending.' }).optional(),
});

export type UpdateEventInput = z.infer<typeof updateEventBody>;

export const eventIdParams = z.object({ id: idParam('Event id') });

/** PUT /api/events/admin/changes/:id/reject: an optional reason, shown to the organiser. */
export const rejectChangeBody = z.object({ reason: text('Reason', 500).optional() });
export const userIdParams = z.object({ userId: idParam('User id') });

export const shareBody = z.object({
  platform: z.preprocess(
    (value) => {
      if (typeof value !== 'string') return value;
      const lower = value.trim().toLowerCase();
      return lower === 'x' ? 'twitter' : lower;
    },
    z.enum(SHARE_PLATFORMS, { error: `Platform must be one of: ${SHARE_PLATFORMS.join(', ')}.` }),
  ),
});

const queryDate = (field: string) =>
  z
    .string({ error: `${field} must be a date (YYYY-MM-DD).` })
    .trim()
    .transform((value, ctx) => {
      const parsed = parseDayOrWallClock(value);
      if (!parsed) {
        ctx.addIssue({ code: 'custom', message: `${field} must be a date (YYYY-MM-DD) or date and time (YYYY-MM-DDTHH:mm).` });
        return z.NEVER;
      }
      return parsed;
    });

const queryInt = (field: string, min: number, max: number) =>
  z
    .string({ error: `${field} must be a whole number.` })
    .trim()
    .regex(/^\d{1,6}$/, `${field} must be a whole number.`)
    .transform(Number)
    .pipe(z.number().min(min, `${field} must be at least ${min}.`).max(max, `${field} must be at most ${max}.`));

export const SEARCH_LIMIT_DEFAULT = 12;
export const SEARCH_LIMIT_MAX = 50;

/** Query strings: absent or empty parameters take their defaults. */
const optionalQuery = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (isBlank(value) ? undefined : value), schema.optional());

export const searchQuery = z
  .object({
    q: optionalQuery(text('q', 200)),
    location: optionalQuery(text('Location', EVENT_LOCATION_MAX)),
    from: optionalQuery(queryDate('from')),
    to: optionalQuery(queryDate('to')),
    free: optionalQuery(flag('free')),
    page: optionalQuery(queryInt('page', 1, 10_000)),
    limit: optionalQuery(queryInt('limit', 1, SEARCH_LIMIT_MAX)),
    cursor: optionalQuery(
      z
        .string({ error: 'cursor must be text.' })
        .max(100, 'cursor is not valid: use the nextCursor of a previous answer.')
        .transform((value, ctx) => {
          const cursor = decodeCursor(value);
          if (!cursor) {
            ctx.addIssue({ code: 'custom', message: 'cursor is not valid: use the nextCursor of a previous answer.' });
            return z.NEVER;
          }
          return cursor;
        })
        .meta({ description: 'Keyset paging: the `nextCursor` of the previous page (then `page` only labels the answer).' }),
    ),
  })
  .transform((query) => ({
    q: query.q,
    location: query.location,
    from: query.from?.date,
    // A day given as `to` includes that whole day.
    toExclusive: query.to ? new Date(query.to.date.getTime() + (query.to.dayOnly ? DAY_MS : 1)) : undefined,
    free: query.free,
    page: query.page ?? 1,
    limit: query.limit ?? SEARCH_LIMIT_DEFAULT,
    cursor: query.cursor,
  }));

export type SearchInput = z.infer<typeof searchQuery>;

export const listLimitQuery = (fallback: number) =>
  z.object({ limit: optionalQuery(queryInt('limit', 1, SEARCH_LIMIT_MAX)) }).transform((query) => query.limit ?? fallback);

/** Event pages stay under 100 KB even when every description is at its longest (5,000 characters). */
export const EVENT_PAGE_LIMIT = 15;
export const ADMIN_EVENT_STATUSES = ['pending', 'approved', 'cancelled'] as const;
export type AdminEventStatus = (typeof ADMIN_EVENT_STATUSES)[number];

/** GET /api/admin/events: one status (every one when absent), one organiser, words of the title, by date. */
export const adminEventsQuery = z.object({
  ...timePageQuery(EVENT_PAGE_LIMIT),
  status: optionalQuery(z.enum(ADMIN_EVENT_STATUSES, { error: `status must be one of ${ADMIN_EVENT_STATUSES.join(', ')}.` })),
  user: optionalQuery(idParam('user').meta({ description: "Only this organiser's events (the scraper's system user for /admpst)." })),
  q: optionalQuery(text('q', 200).meta({ description: 'Part of the title or the place, any case.' })),
  order: optionalQuery(z.enum(['asc', 'desc'], { error: 'order must be asc or desc.' }))
    .transform((order) => order ?? 'asc')
    .meta({ description: 'By date: soonest first (`asc`, the default) or latest first (`desc`).' }),
});
export type AdminEventsQuery = z.infer<typeof adminEventsQuery>;

/** GET /api/events/user/:userId/paged. */
export const eventPageQuery = z.object(timePageQuery(EVENT_PAGE_LIMIT));
