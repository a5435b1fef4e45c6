import { Router, type Request, type RequestHandler } from 'express';
import { z } from 'zod';
import { requireSelf, requireUser } from '../../lib/auth.js';
import { AppError } from '../../lib/app-error.js';
import { apiDocs, shape } from '../../lib/openapi.js';
import {
  countAsFailedAttempt,
  limitFailuresPerIp,
  limitLoginFailures,
  limitPerAccount,
  limitPerIp,
  type AccountRateLimits,
  type KeyOf,
} from '../../lib/rate-limit.js';
import { idParam, parse } from '../../lib/validate.js';
import {
  forgotPasswordBody,
  loginBody,
  registerBody,
  resendVerificationBody,
  resetPasswordBody,
  setAvatarBody,
  tokenParam,
  updateUserBody,
} from './auth.schemas.js';
import { normaliseAccountName } from './account-names.js';
import { USER_SEARCH_MAX_PAGE, USER_SEARCH_PAGE_SIZE, type AuthService } from './auth.service.js';
import { contactBody } from '../contact/contact.schemas.js';
import { sendBody } from '../chat/chat.routes.js';

/**
 * The contract answers account failures (login, register, forgot/reset password) as 2xx
 * `{status:false, msg}`; server faults still surface as 5xx through the error handler.
 */
function accountCall(handler: (req: Request) => Promise<Record<string, unknown> | void>): RequestHandler {
  return async (req, res) => {
    try {
      res.json({ status: true, ...(await handler(req)) });
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      countAsFailedAttempt(res);
      res.json({ status: false, msg: error.message, ...(error.details?.field ? { field: error.details.field } : {}), ...error.details?.body });
    }
  };
}

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

const contactShape = shape.object({ _id: 'string', username: 'string', avatarImage: 'string' });

export function createAuthRouter(deps: { auth: AuthService; rateLimit: AccountRateLimits; sendMessage: RequestHandler }) {
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
      return undefined; // Invalid input is answered (and counted per address) by the handler.
    }
    return auth.loginAccountKey(username);
  };
  const doc = apiDocs(router, 'Accounts');
  const accountResult = (description: string) => ({ description, schema: shape.ref('AccountResult') });
  const tooMany = { description: 'Too many attempts from this address or for this account: `{status:false, msg}`.', schema: shape.ref('AccountResult') };

  doc.post('/register', {
    summary: 'Create an account; a verification link is emailed',
    auth: 'public',
    body: registerBody,
    failuresAs200: true,
    responses: { 200: accountResult('`{status:true, msg}`, or `{status:false, msg, field}` for bad input or a username/email already used.'), 429: tooMany },
  });
  router.post(
    '/register',
    limitPerIp({ ...addressCeiling, name: 'register-address' }, failed),
    accountCall(async (req) => auth.register(parse(registerBody, req.body))),
  );

  doc.get('/verify-email/:token', {
    summary: 'Verify an email address with the emailed token',
    auth: 'public',
    params: tokenParam,
    responses: { 200: { description: 'Verified.', schema: shape.object({ status: { const: true }, msg: 'string' }) }, 400: 'The link is invalid or has expired.' },
  });
  router.get('/verify-email/:token', async (req, res) => {
    const { token } = parse(tokenParam, req.params);
    await auth.verifyEmail(token);
    res.json({ status: true, msg: 'Email verified successfully!' });
  });

  doc.post('/resend-verification', {
    summary: 'Send a new verification link (same answer whether or not the account exists)',
    auth: 'public',
    body: resendVerificationBody,
    failuresAs200: true,
    responses: { 200: accountResult('`{status:true, msg}`; `{status:false, msg}` when neither username nor email is given.'), 429: tooMany },
  });
  router.post(
    '/resend-verification',
    limitPerIp({ ...addressCeiling, name: 'resend-verification-address' }, failed),
    limitPerAccount({ ...limits, name: 'resend-verification-account' }, (req) => bodyField('username')(req) ?? bodyField('email')(req), failed),
    accountCall(async (req) => {
      const body = parse(resendVerificationBody, req.body);
      auth.requestVerificationResend((body.username || body.email)!);
      return { msg: 'If that account is waiting for verification, a new link is on its way.' };
    }),
  );

  doc.post('/login', {
    summary: 'Log in; returns the bearer token and the user',
    auth: 'public',
    body: loginBody,
    failuresAs200: true,
    responses: {
      200: {
        description: '`{status:true, msg, token, user}`, or `{status:false, msg}` for a wrong username/password or an email not verified yet.',
        schema: { anyOf: [shape.object({ status: { const: true }, msg: 'string', token: 'string', user: shape.ref('User') }), shape.ref('AccountResult')] },
      },
      429: tooMany,
    },
  });
  router.post(
    '/login',
    ...limitLoginFailures(limits, loginAccount, failed),
    accountCall(async (req) => auth.login(parse(loginBody, req.body))),
  );

  doc.post('/logout', {
    summary: "Log out: revokes the caller's tokens",
    auth: 'user',
    responses: { 200: { description: 'Logged out.', schema: shape.object({ status: { const: true } }) } },
  });
  router.post('/logout', async (req, res) => {
    const user = requireUser(req);
    await auth.logout(user.id);
    res.json({ status: true });
  });

  doc.post('/forgot-password', {
    summary: 'Email a password reset link (same answer for unknown emails)',
    auth: 'public',
    body: forgotPasswordBody,
    failuresAs200: true,
    responses: { 200: accountResult('`{status:true, msg}`; `{status:false, msg, field}` for an invalid email.'), 429: tooMany },
  });
  router.post(
    '/forgot-password',
    limitPerIp({ ...addressCeiling, name: 'forgot-password-address' }, failed),
    limitPerAccount({ ...limits, name: 'forgot-password-account' }, bodyField('email'), failed),
    accountCall(async (req) => {
      auth.forgotPassword(parse(forgotPasswordBody, req.body).email);
      return { msg: 'If an account uses that email, a reset link is on its way.' };
    }),
  );

  doc.post('/reset-password/:token', {
    summary: 'Set a new password with the emailed token',
    auth: 'public',
    params: tokenParam,
    body: resetPasswordBody,
    failuresAs200: true,
    responses: { 200: accountResult('`{status:true, msg}`, or `{status:false, msg}` for an invalid/expired link or a too short password.'), 429: tooMany },
  });
  router.post(
    '/reset-password/:token',
    limitFailuresPerIp({ ...addressCeiling, name: 'reset-password-address' }, failed),
    accountCall(async (req) => {
      const { token } = parse(tokenParam, req.params);
      const { password } = parse(resetPasswordBody, req.body);
      await auth.resetPassword(token, password);
      return { msg: 'Password has been reset successfully!' };
    }),
  );

  doc.get('/user/:id', {
    summary: 'A user profile (self or admin)',
    auth: 'self',
    description: 'An administrator may read any user.',
    params: userIdParams,
    responses: { 200: { description: '`{user}`.', schema: shape.object({ user: shape.ref('User') }) }, 404: 'No such user.' },
  });
  router.get('/user/:id', async (req, res) => {
    const { id } = parse(userIdParams, req.params);
    requireSelf(req, id, { allowAdmin: true });
    res.json({ user: await auth.getUser(id) });
  });

  doc.put('/user/:id', {
    summary: 'Change username and/or email (self or admin)',
    auth: 'self',
    description: 'An administrator may edit any user. A changed email must be verified again.',
    params: userIdParams,
    body: updateUserBody,
    responses: { 200: { description: '`{user}`: the updated user.', schema: shape.object({ user: shape.ref('User') }) }, 404: 'No such user.', 409: 'Username or email already used.' },
  });
  router.put('/user/:id', async (req, res) => {
    const { id } = parse(userIdParams, req.params);
    requireSelf(req, id, { allowAdmin: true });
    res.json({ user: await auth.updateUser(id, parse(updateUserBody, req.body)) });
  });

  doc.post('/setavatar/:id', {
    summary: 'Set the avatar (base64 SVG markup)',
    auth: 'self',
    params: userIdParams,
    body: setAvatarBody,
    responses: { 200: { description: 'The cleaned avatar as stored.', schema: shape.object({ isSet: { const: true }, image: 'string' }) } },
  });
  router.post('/setavatar/:id', async (req, res) => {
    const { id } = parse(userIdParams, req.params);
    requireSelf(req, id);
    res.json(await auth.setAvatar(id, parse(setAvatarBody, req.body).image));
  });

  doc.get('/allusers/:id', {
    summary: 'Chat contacts: the people the caller has exchanged messages with',
    auth: 'self',
    description: 'Most recent conversation first, at most 500. To find someone new, search by username (GET /api/auth/users/search).',
    params: userIdParams,
    responses: {
      200: {
        description: 'Bare array of contacts, without emails (`avatarImage` is empty for someone who has none).',
        schema: shape.array(contactShape),
      },
    },
  });
  router.get('/allusers/:id', async (req, res) => {
    const { id } = parse(userIdParams, req.params);
    requireSelf(req, id);
    res.json(await auth.listContacts(id));
  });

  doc.get('/users/search', {
    summary: 'Find someone to chat with: usernames starting with `q`',
    auth: 'user',
    description: `Case-insensitive prefix match over verified users with an avatar, never the caller; ${USER_SEARCH_PAGE_SIZE} per page in username order, pages 1 to ${USER_SEARCH_MAX_PAGE}.`,
    query: userSearchQuery,
    responses: {
      200: {
        description: '`{users, page, hasMore}`; `users` has the contact shape of GET /api/auth/allusers/:id.',
        schema: shape.object({ users: shape.array(contactShape), page: 'integer', hasMore: 'boolean' }),
      },
    },
  });
  router.get('/users/search', async (req, res) => {
    const user = requireUser(req);
    const { q, page } = parse(userSearchQuery, req.query);
    res.json(await auth.searchUsers(user.id, q, page));
  });

  doc.post('/sendMessage', {
    summary: 'Send a chat message, or the contact form',
    auth: 'optional',
    description:
      'Two bodies share this path. Chat `{from, to, message}` needs a bearer token whose user is `from` (else 401/403) and answers the stored message. The contact form `{name, email, subject, message}` needs no token and answers `{msg}`.',
    body: z.union([sendBody, contactBody]),
    responses: { 200: 'Chat: the stored message. Contact form: `{msg}`.', 401: 'Chat without a token.', 403: 'Chat `from` is not the caller.', 429: 'Too many contact messages from this address.' },
  });
  router.post('/sendMessage', deps.sendMessage);

  return router;
}
