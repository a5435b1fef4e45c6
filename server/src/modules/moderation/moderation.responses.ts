import { z } from 'zod';
import { pageSchema } from '../../lib/keyset-page.js';
import { dateTimeString as dateTime, idString as id } from '../../lib/response-shapes.js';
import { ACTIONS, REPORT_KINDS, REPORT_REASONS } from './moderation.schemas.js';

/** Response bodies of the moderation routes, for the API document (the service's return values say the same in TypeScript). */

const kind = z.enum(REPORT_KINDS);
const action = z.enum(ACTIONS);
const person = z.object({ _id: id, username: z.string() });

export const reportResponse = z
  .object({
    _id: id,
    kind,
    id,
    reason: z.enum(REPORT_REASONS),
    details: z.string(),
    status: z.enum(['open', 'resolved']),
    outcome: action.nullable().meta({ description: "The moderator's action once resolved." }),
    createdAt: dateTime,
  })
  .meta({ id: 'Report' });

export const reportCreated = z.object({ status: z.literal(true), msg: z.string(), report: reportResponse });
export const myReports = z.object({ reports: z.array(reportResponse) });

const queueItem = z
  .object({
    kind,
    id,
    reportCount: z.int(),
    firstReportedAt: dateTime,
    item: z
      .object({ text: z.string(), hidden: z.boolean(), hiddenReason: z.string().nullable(), createdAt: dateTime.nullable() })
      .nullable()
      .meta({ description: 'Null once the item is gone (deleted): only dismissing is left.' }),
    event: z.object({ _id: id, title: z.string() }).nullable(),
    thread: z.object({ _id: id, title: z.string() }).nullable(),
    author: z
      .object({
        _id: id,
        username: z.string(),
        role: z.enum(['user', 'admin']),
        suspendedUntil: dateTime.nullable(),
        bannedAt: dateTime.nullable(),
        warnings: z.int(),
        suspensions: z.int(),
        bans: z.int(),
      })
      .nullable(),
    context: z.object({
      posts: z.array(z.object({ _id: id, parent: id.nullable(), user: person, content: z.string(), hidden: z.boolean(), createdAt: dateTime })).meta({ description: "A reported thread's or post's thread." }),
      messages: z
        .array(z.object({ _id: id, from: person, message: z.string(), hidden: z.boolean(), reported: z.boolean(), createdAt: dateTime }))
        .meta({ description: 'The last messages of the conversation, for a reported chat message only.' }),
    }),
    reports: z.array(z.object({ _id: id, reason: z.enum(REPORT_REASONS), details: z.string(), createdAt: dateTime, reporter: person, automatic: z.boolean() })),
  })
  .meta({ id: 'ModerationQueueItem' });

export const queueResponse = z.object({ items: z.array(queueItem) });

export const queuePage = pageSchema(queueItem);

/** What every moderation action says of itself, in the answer to it and in the log. */
const actionFields = {
  _id: id,
  action,
  kind,
  id,
  reason: z.string(),
  days: z.int().nullable(),
};

export const actionResponse = z.object({
  status: z.literal(true),
  action: z.object({
    ...actionFields,
    suspendedUntil: dateTime.nullable(),
    resolvedReports: z.int(),
    createdAt: dateTime,
  }),
});

const logEntry = z.object({
  ...actionFields,
  excerpt: z.string(),
  createdAt: dateTime,
  admin: person,
  user: person.nullable(),
});

export const logResponse = z.object({ actions: z.array(logEntry) });

export const logPage = pageSchema(logEntry);
