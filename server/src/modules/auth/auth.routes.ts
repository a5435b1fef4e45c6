import { USER_SEARCH_MAX_PAGE } from '@tukio/shared/limits';
import { Router, type ErrorRequestHandler, type Request } from 'express';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { accountResult } from '../../lib/openapi.js';
import {
  countAsFailedAttempt,
  limitFailuresPerIp,
  limitLoginFailures,
  limitPerAccount,
  limitPerIp,
  type AccountRateLimits,
  type KeyOf,
} from '../../lib/rate-limit.js';
import { answersFailuresAs200, declareRoutes } from '../../lib/route-declaration.js';
import { idParam, parse } from '../../lib/validate.js';
import {
  forgotPasswordBody,
  loginBody,
  registerBody,
  smsPromotionsAnswer,
  smsPromotionsBody,
  resendVerificationBody,
  resetPasswordBody,
  setAvatarBody,
  setLanguageBody,
  tokenParam,
  updateUserBody,
} from './auth.schemas.js';
import { normaliseAccountName } from './account-names.js';
import { avatarSet, contactList, loggedOut, loginResult, userOnly, userSearchPage, verified } from './auth.responses.js';
import { USER_SEARCH_PAGE_SIZE, type AuthService } from './auth.service.js';
import { contactAnswer, storedMessage, type SendMessage } from '../chat/index.js';

/**
 * The contract answers account failures (login, register, forgot/reset password) as 2xx
 * `{status:false, msg}`; server faults still surface as 5xx through the error handler. Such a route
 * declares `failuresAs200`, so every failure after its gate and rate limits (input validation included)
 * reaches `accountFailures`, the router's error handler, as an account failure; successes are `succeeded(...)`.
 */
const accountFailures: ErrorRequestHandler = (error: unknown, _req, res, next) => {
  if (!answersFailuresAs200(res) || !(error instanceof AppError) || error.status >= 500) return next(error);
  countAsFailedAttempt(res);
  const { field, params, body } = error.details ?? {};
  res.json({ status: false, msg: error.message, code: error.code, ...(field ? { field } : {}), ...(params ? { params } : {}), ...body });
};

const succeeded = (result?: Record<string, unknown>) => ({ status: true, ...result });

/** A body field as a rate-limit key: normalised like stored names, so `Amani` and `ＡＭＡＮＩ` share a budget. */
const bodyField = (name: string) => (req: Request) => {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && value.length <= 254 && value.trim() ? normaliseAccountName(value) : undefined;
};

const userIdParams = z.object({ id: idParam('User id') });

const userSearchQuery = z.object({
  q: z.string().trim().min(1, 'q (the start of a username) is required.').max(30),
  page: z.coerce.number().int().min(1).max(USER_SEARCH_MAX_PAGE, `page must be at most ${USER_SEARCH_MAX_PAGE}: type more of the username.`).default(1),
});

export function createAuthRouter(deps: { auth: AuthService; rateLimit: AccountRateLimits; sendMessage: SendMessage }) {
  const { auth } = deps;
  const router = Router();
  const failed = { status: false };
  const limits = deps.rateLimit;
  // Each route has budgets of its own (registering or resetting never uses up a login budget); the
  // per-address ones are high ceilings because whole networks share one address (CGNAT, campuses).
  const addressCeiling = { windowMs: limits.windowMs, max: limits.ipMax, budgets: limits.budgets };
  /** A login name's budget is its account's, whether given as username or email (unknown names: the name). */
  const loginAccount: KeyOf = (req) => {
    let username: string;
    try {
      ({ username } = parse(loginBody, req.body));
    } catch {
      return undefined; // Invalid input is answered (and counted per address) by `accountFailures`.
    }
    return auth.loginAccountKey(username);
  };
  const routes = declareRoutes(router, 'Accounts');
  const accountAnswer = (description: string) => ({ description, schema: accountResult });
  const tooMany = { description: 'Too many attempts from this address or for this account: `{status:false, msg}`.', schema: accountResult };

  routes.post(
    '/register',
    {
      summary: 'Create an account; a verification link is emailed',
      access: 'public',
      use: [limitPerIp({ ...addressCeiling, name: 'register-address' }, failed)],
      body: registerBody,
      failuresAs200: true,
      responses: { 200: accountAnswer('`{status:true, msg}`, or `{status:false, msg, field}` for bad input or a username/email already used.'), 429: tooMany },
    },
    async ({ body }) => succeeded(await auth.register(body)),
  );

  routes.get(
    '/verify-email/:token',
    {
      summary: 'Verify an email address with the emailed token',
      access: 'public',
      params: tokenParam,
      responses: { 200: { description: 'Verified.', schema: verified }, 400: 'The link is invalid or has expired.' },
    },
    async ({ params }) => {
      await auth.verifyEmail(params.token);
      return { status: true, msg: 'Email verified successfully!' };
    },
  );

  routes.post(
    '/resend-verification',
    {
      summary: 'Send a new verification link (same answer whether or not the account exists)',
      access: 'public',
      use: [
        limitPerIp({ ...addressCeiling, name: 'resend-verification-address' }, failed),
        limitPerAccount({ ...limits, name: 'resend-verification-account' }, (req) => bodyField('username')(req) ?? bodyField('email')(req), failed),
      ],
      body: resendVerificationBody,
      failuresAs200: true,
      responses: { 200: accountAnswer('`{status:true, msg}`; `{status:false, msg}` when neither username nor email is given.'), 429: tooMany },
    },
    ({ body }) => {
      auth.requestVerificationResend((body.username || body.email)!);
      return succeeded({ msg: 'If that account is waiting for verification, a new link is on its way.' });
    },
  );

  routes.post(
    '/login',
    {
      summary: 'Log in; returns the bearer token and the user',
      access: 'public',
      use: [...limitLoginFailures(limits, loginAccount, failed)],
      body: loginBody,
      failuresAs200: true,
      responses: {
        200: {
          description: '`{status:true, msg, token, user}`, or `{status:false, msg}` for a wrong username/password or an email not verified yet.',
          schema: loginResult,
        },
        429: tooMany,
      },
    },
    async ({ body }) => succeeded(await auth.login(body)),
  );

  routes.post(
    '/logout',
    { summary: "Log out: revokes the caller's tokens", access: 'user', responses: { 200: { description: 'Logged out.', schema: loggedOut } } },
    async ({ user }) => {
      await auth.logout(user.id);
      return { status: true };
    },
  );

  routes.post(
    '/forgot-password',
    {
      summary: 'Email a password reset link (same answer for unknown emails)',
      access: 'public',
      use: [
        limitPerIp({ ...addressCeiling, name: 'forgot-password-address' }, failed),
        limitPerAccount({ ...limits, name: 'forgot-password-account' }, bodyField('email'), failed),
      ],
      body: forgotPasswordBody,
      failuresAs200: true,
      responses: { 200: accountAnswer('`{status:true, msg}`; `{status:false, msg, field}` for an invalid email.'), 429: tooMany },
    },
    ({ body }) => {
      auth.forgotPassword(body.email);
      return succeeded({ msg: 'If an account uses that email, a reset link is on its way.' });
    },
  );

  routes.post(
    '/reset-password/:token',
    {
      summary: 'Set a new password with the emailed token',
      access: 'public',
      use: [limitFailuresPerIp({ ...addressCeiling, name: 'reset-password-address' }, failed)],
      params: tokenParam,
      body: resetPasswordBody,
      failuresAs200: true,
      responses: { 200: accountAnswer('`{status:true, msg}`, or `{status:false, msg}` for an invalid/expired link or a too short password.'), 429: tooMany },
    },
    async ({ params, body }) => {
      await auth.resetPassword(params.token, body.password);
      return succeeded({ msg: 'Password has been reset successfully!' });
    },
  );

  routes.get(
    '/user/:id',
    {
      summary: 'A user profile (self or admin)',
      access: 'self',
      self: ({ params }) => params.id,
      allowAdmin: true,
      description: 'An administrator may read any user.',
      params: userIdParams,
      responses: { 200: { description: '`{user}`.', schema: userOnly }, 404: 'No such user.' },
    },
    async ({ params }) => ({ user: await auth.getUser(params.id) }),
  );

  routes.put(
    '/user/:id',
    {
      summary: 'Change username and/or email (self or admin)',
      access: 'self',
      self: ({ params }) => params.id,
      allowAdmin: true,
      description: 'An administrator may edit any user. A changed email must be verified again.',
      params: userIdParams,
      body: updateUserBody,
      responses: { 200: { description: '`{user}`: the updated user.', schema: userOnly }, 404: 'No such user.', 409: 'Username or email already used.' },
    },
    async ({ params, body }) => ({ user: await auth.updateUser(params.id, body) }),
  );

  routes.put(
    '/user/:id/language',
    {
      summary: "Set the account's language (its mail and SMS are written in it)",
      access: 'self',
      self: ({ params }) => params.id,
      description: "`{language}`: 'en' (English) or 'sw' (Kiswahili). The app sends it when a signed-in user switches language.",
      params: userIdParams,
      body: setLanguageBody,
      responses: { 200: { description: '`{user}`: the updated user.', schema: userOnly }, 404: 'No such user.' },
    },
    async ({ params, body }) => ({ user: await auth.setLanguage(params.id, body.language) }),
  );

  routes.get(
    '/user/:id/sms-promotions',
    {
      summary: 'Whether the account opted in to promotional SMS',
      access: 'self',
      self: ({ params }) => params.id,
      params: userIdParams,
      responses: { 200: { description: '`{smsPromotions}`.', schema: smsPromotionsAnswer }, 404: 'No such user.' },
    },
    ({ params }) => auth.smsPromotions(params.id),
  );

  routes.put(
    '/user/:id/sms-promotions',
    {
      summary: 'Opt in to or out of promotional SMS (tickets, codes and reminders are sent either way)',
      access: 'self',
      self: ({ params }) => params.id,
      params: userIdParams,
      body: smsPromotionsBody,
      responses: { 200: { description: '`{smsPromotions}`.', schema: smsPromotionsAnswer }, 404: 'No such user.' },
    },
    ({ params, body }) => auth.setSmsPromotions(params.id, body.smsPromotions),
  );

  routes.post(
    '/setavatar/:id',
    {
      summary: 'Set the avatar (base64 SVG markup)',
      access: 'self',
      self: ({ params }) => params.id,
      params: userIdParams,
      body: setAvatarBody,
      responses: { 200: { description: 'The cleaned avatar as stored.', schema: avatarSet } },
    },
    ({ params, body }) => auth.setAvatar(params.id, body.image),
  );

  routes.get(
    '/allusers/:id',
    {
      summary: 'Chat contacts: the people the caller has exchanged messages with',
      access: 'self',
      self: ({ params }) => params.id,
      description: 'Most recent conversation first, at most 500. To find someone new, search by username (GET /api/auth/users/search).',
      params: userIdParams,
      responses: {
        200: { description: 'Bare array of contacts, without emails (`avatarImage` is empty for someone who has none).', schema: contactList },
      },
    },
    ({ params }) => auth.listContacts(params.id),
  );

  routes.get(
    '/users/search',
    {
      summary: 'Find someone to chat with: usernames starting with `q`',
      access: 'user',
      description: `Case-insensitive prefix match over verified users with an avatar, never the caller; ${USER_SEARCH_PAGE_SIZE} per page in username order, pages 1 to ${USER_SEARCH_MAX_PAGE}.`,
      query: userSearchQuery,
      responses: {
        200: { description: '`{users, page, hasMore}`; `users` has the contact shape of GET /api/auth/allusers/:id.', schema: userSearchPage },
      },
    },
    ({ query, user }) => auth.searchUsers(user.id, query.q, query.page),
  );

  deps.sendMessage.mount(router, routes, '/sendMessage', {
    summary: 'Send a chat message, or the contact form',
    description:
      'Two bodies share this path. Chat `{from, to, message}` needs a bearer token whose user is `from` (else 401/403) and answers the stored message. The contact form `{name, email, subject, message}` needs no token and answers `{msg}`.',
    responses: {
      200: { description: 'Chat: the stored message. Contact form: `{msg}`.', schema: z.union([storedMessage, contactAnswer]) },
      401: 'Chat without a token.',
      403: 'Chat `from` is not the caller.',
      429: 'Too many contact messages from this address.',
    },
  });

  // Last: it answers the failures of the account calls above (those that declare `failuresAs200`).
  router.use(accountFailures);

  return router;
}
