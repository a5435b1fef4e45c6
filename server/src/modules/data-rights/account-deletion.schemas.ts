import { z } from 'zod';
import { dateTimeString as dateTime, idString } from '../../lib/response-shapes.js';

const forfeitTickets = z
  .boolean()
  .optional()
  .meta({ description: 'Keep going although you hold tickets to events still to come: they become void without a refund when the account is erased.' });

export const deletionRequestBody = z.object({
  password: z.string().min(1).max(200).meta({ description: 'Your password, asked again.' }),
  forfeitTickets,
});

export const deletionTokenBody = z.object({ token: z.string().min(20).max(100).regex(/^[A-Za-z0-9_-]+$/).meta({ description: 'The token from the emailed link.' }) });

export const userParams = z.object({ id: idString.meta({ description: 'The account to delete.' }) });

export const adminDeletionBody = z.object({
  reason: z.string().trim().min(10).max(1000).meta({ description: 'Why, with a reference to the written request (kept in the log).' }),
  forfeitTickets,
});

export const deletionRequested = z.object({ state: z.literal('requested'), email: z.string().meta({ description: 'Where the confirmation link was sent.' }) });
export const deletionScheduled = z.object({ state: z.literal('scheduled'), eraseAt: dateTime.meta({ description: 'When the account is erased unless the deletion is undone.' }) });
export const deletionCancelled = z.object({ state: z.literal('cancelled') });
/** A signed-in account is never scheduled (confirming signs it out everywhere): no request, or one awaiting its link. */
export const deletionStatus = z.discriminatedUnion('state', [
  z.object({ state: z.literal('none') }),
  z.object({
    state: z.literal('requested'),
    email: z.string().meta({ description: 'Where the confirmation link was sent.' }),
    expiresAt: dateTime.meta({ description: 'When the emailed link stops working (ask again for a new one).' }),
  }),
]);

export const adminDeletionLog = z.object({
  deletions: z.array(
    z.object({
      id: idString,
      userId: idString,
      username: z.string().nullable().meta({ description: 'The account (the `deleted-<id>` placeholder once erased).' }),
      status: z.enum(['requested', 'scheduled', 'cancelled', 'erased']),
      requestedBy: idString.nullable(),
      reason: z.string().nullable(),
      eraseAt: dateTime.nullable(),
      cancelledBy: idString.nullable(),
      createdAt: dateTime,
    }),
  ),
});

export const accountSearchQuery = z.object({ q: z.string().trim().min(2).max(200).meta({ description: 'The start of a username, or an exact email.' }) });
export const accountSearchResult = z.object({ users: z.array(z.object({ _id: idString, username: z.string(), email: z.string() })) });
