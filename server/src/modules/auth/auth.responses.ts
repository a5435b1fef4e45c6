import { LANGUAGES } from '@tukio/shared/languages';
import { z } from 'zod';
import { accountResult } from '../../lib/openapi.js';
import { idString as id } from '../../lib/response-shapes.js';

/** Response bodies of the account routes, for the API document (`toPublicUser` and the repository's rows say the same in TypeScript). */

/** The account as its owner (or an administrator) sees it: `toPublicUser`. */
export const userResponse = z
  .object({
    _id: id,
    username: z.string(),
    email: z.string().meta({ format: 'email' }),
    avatarImage: z.string().meta({ description: 'Base64 SVG markup, shown as data:image/svg+xml;base64,…; empty until set.' }),
    isAvatarImageSet: z.boolean(),
    role: z.enum(['user', 'admin']),
    language: z.enum(LANGUAGES).meta({ description: "The account's language: its mail and SMS are written in it, and the app opens in it." }),
  })
  .meta({ id: 'User' });

export const userOnly = z.object({ user: userResponse });

export const verified = z.object({ status: z.literal(true), msg: z.string() });

export const loginResult = z.union([z.object({ status: z.literal(true), msg: z.string(), token: z.string(), user: userResponse }), accountResult]);

export const loggedOut = z.object({ status: z.literal(true) });

export const avatarSet = z.object({ isSet: z.literal(true), image: z.string() });

/** Someone to chat with, without the email. */
const contact = z.object({ _id: id, username: z.string(), avatarImage: z.string() });

export const contactList = z.array(contact);

export const userSearchPage = z.object({ users: contactList, page: z.int(), hasMore: z.boolean() });
