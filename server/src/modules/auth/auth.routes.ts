import { Router, type Request, type RequestHandler } from 'express';
import { z } from 'zod';
import { requireSelf, requireUser } from '../../lib/auth.js';
import { AppError } from '../../lib/app-error.js';
import { limitPerAccount, limitPerIp, type RateLimitOptions } from '../../lib/rate-limit.js';
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
import type { AuthService } from './auth.service.js';

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
      res.json({ status: false, msg: error.message, ...(error.details?.field ? { field: error.details.field } : {}), ...error.details?.body });
    }
  };
}

const bodyField = (name: string) => (req: Request) => {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && value.length <= 254 ? value.trim() : undefined;
};

const userIdParams = z.object({ id: idParam('User id') });

export function createAuthRouter(deps: { auth: AuthService; rateLimit: RateLimitOptions; sendMessage: RequestHandler }) {
  const { auth } = deps;
  const router = Router();
  const failed = { status: false };
  const perIp = limitPerIp(deps.rateLimit, failed);

  router.post(
    '/register',
    perIp,
    accountCall(async (req) => auth.register(parse(registerBody, req.body))),
  );

  router.get('/verify-email/:token', async (req, res) => {
    const { token } = parse(tokenParam, req.params);
    await auth.verifyEmail(token);
    res.json({ status: true, msg: 'Email verified successfully!' });
  });

  router.post(
    '/resend-verification',
    perIp,
    limitPerAccount(deps.rateLimit, (req) => bodyField('username')(req) ?? bodyField('email')(req), failed),
    accountCall(async (req) => {
      const body = parse(resendVerificationBody, req.body);
      await auth.resendVerification((body.username || body.email)!);
      return { msg: 'If that account is waiting for verification, a new link is on its way.' };
    }),
  );

  router.post(
    '/login',
    perIp,
    limitPerAccount(deps.rateLimit, bodyField('username'), failed),
    accountCall(async (req) => auth.login(parse(loginBody, req.body))),
  );

  router.post('/logout', async (req, res) => {
    const user = requireUser(req);
    await auth.logout(user.id);
    res.json({ status: true });
  });

  router.post(
    '/forgot-password',
    perIp,
    limitPerAccount(deps.rateLimit, bodyField('email'), failed),
    accountCall(async (req) => {
      await auth.forgotPassword(parse(forgotPasswordBody, req.body).email);
      return { msg: 'If an account uses that email, a reset link is on its way.' };
    }),
  );

  router.post(
    '/reset-password/:token',
    perIp,
    accountCall(async (req) => {
      const { token } = parse(tokenParam, req.params);
      const { password } = parse(resetPasswordBody, req.body);
      await auth.resetPassword(token, password);
      return { msg: 'Password has been reset successfully!' };
    }),
  );

  router.get('/user/:id', async (req, res) => {
    const { id } = parse(userIdParams, req.params);
    requireSelf(req, id, { allowAdmin: true });
    res.json({ user: await auth.getUser(id) });
  });

  router.put('/user/:id', async (req, res) => {
    const { id } = parse(userIdParams, req.params);
    requireSelf(req, id, { allowAdmin: true });
    res.json({ user: await auth.updateUser(id, parse(updateUserBody, req.body)) });
  });

  router.post('/setavatar/:id', async (req, res) => {
    const { id } = parse(userIdParams, req.params);
    requireSelf(req, id);
    res.json(await auth.setAvatar(id, parse(setAvatarBody, req.body).image));
  });

  router.get('/allusers/:id', async (req, res) => {
    const { id } = parse(userIdParams, req.params);
    requireSelf(req, id);
    res.json(await auth.listContacts(id));
  });

  router.post('/sendMessage', deps.sendMessage);

  return router;
}
