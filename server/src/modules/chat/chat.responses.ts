import { z } from 'zod';
import { pageSchema } from '../../lib/keyset-page.js';
import { dateTimeString as dateTime, idString as id } from '../../lib/response-shapes.js';

/** Response bodies of the chat routes, for the API document (`DeliveredMessage` and `conversation` say the same in TypeScript). */

export const storedMessage = z.object({ _id: id, from: id, to: id, message: z.string(), createdAt: dateTime });

/** What the contact form (sharing the send paths) answers. */
export const contactAnswer = z.object({ msg: z.string() });

const conversationMessage = z.object({
  _id: id,
  fromSelf: z.boolean(),
  message: z.string().meta({ description: '`[hidden by a moderator]` for a hidden message the caller did not send.' }),
  createdAt: dateTime,
  hidden: z.boolean(),
  hiddenReason: z.string().optional().meta({ description: "The moderator's reason, to the message's sender only." }),
});

export const conversation = z.array(conversationMessage);

export const conversationPage = pageSchema(conversationMessage);

const contactCard = z.object({ _id: id, username: z.string(), avatarImage: z.string().meta({ description: 'Empty for someone who has none.' }) });
export const contactPage = pageSchema(contactCard);
export const contact = contactCard;

export const blockList = z.object({ blocked: z.array(z.object({ _id: id, username: z.string(), blockedAt: dateTime })) });

export const marked = z.object({ status: z.literal(true) });

export const blockStatus = z.object({ status: z.literal(true), blocked: z.boolean() });

export const unreadCounts = z.record(z.string(), z.int());
