import { PASSWORD_MIN_LENGTH, USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH } from '@tukio/shared/limits';
import { LANGUAGES } from '@tukio/shared/languages';
import { z } from 'zod';
import { emailSchema, nfkc } from '../../lib/validate.js';

const requiredString = (message: string) =>
  z.string({ error: message }).refine((value) => value.trim().length > 0, message);

export const usernameSchema = z
  .string({ error: 'Username is required.' })
  .overwrite(nfkc)
  .trim()
  .min(USERNAME_MIN_LENGTH, `Username should be greater than ${USERNAME_MIN_LENGTH} characters.`)
  .max(USERNAME_MAX_LENGTH, `Username must be at most ${USERNAME_MAX_LENGTH} characters.`)
  .regex(/^[\p{L}\p{N}._-]+$/u, 'Username may only contain letters, numbers, dots, dashes and underscores.');

export const newPasswordSchema = (message: string) =>
  z
    .string({ error: message })
    .min(PASSWORD_MIN_LENGTH, message)
    // bcrypt only reads the first 72 bytes; a longer password would be silently truncated.
    .refine((value) => Buffer.byteLength(value) <= 72, 'Password must be at most 72 bytes long.');

/** A language Tukio speaks (@tukio/shared/languages). */
export const languageSchema = z.enum(LANGUAGES, { error: `language must be one of: ${LANGUAGES.join(', ')}.` });

export const registerBody = z.object({
  username: usernameSchema,
  email: emailSchema,
  password: newPasswordSchema(`Password should be equal or greater than ${PASSWORD_MIN_LENGTH} characters.`),
  /** The account's language for its mail (the app's current language); English when not given. */
  language: languageSchema.optional(),
  /** Promotional SMS opt-in (the sign-up checkbox, unticked by default). */
  smsPromotions: z.boolean({ error: 'smsPromotions must be true or false.' }).optional(),
});

export const setLanguageBody = z.object({ language: languageSchema });
export const smsPromotionsBody = z.object({ smsPromotions: z.boolean({ error: 'smsPromotions must be true or false.' }) });
export const smsPromotionsAnswer = z.object({ smsPromotions: z.boolean() });

export const loginBody = z.object({
  username: requiredString('Username is required.').pipe(z.string().max(254, 'Username must be at most 254 characters.')),
  password: requiredString('Password is required.').pipe(z.string().max(1024, 'Password is too long.')),
});

export const forgotPasswordBody = z.object({ email: emailSchema });

export const resendVerificationBody = z
  .object({
    username: z.string().trim().max(254).optional(),
    email: z.string().trim().max(254).optional(),
  })
  .refine((body) => Boolean(body.username || body.email), { message: 'Username or email is required.', path: ['username'] });

export const resetPasswordBody = z.object({
  password: newPasswordSchema(`Password must be at least ${PASSWORD_MIN_LENGTH} characters long.`),
});

export const updateUserBody = z.object({
  username: usernameSchema.optional(),
  email: emailSchema.optional(),
});

export const setAvatarBody = z.object({
  image: z
    .string({ error: 'Please select an avatar' })
    .min(1, 'Please select an avatar')
    .max(140_000, 'The avatar image is too large (at most 100 KB).'),
});

export const tokenParam = z.object({ token: z.string().min(10, 'This link is invalid.').max(200, 'This link is invalid.') });
