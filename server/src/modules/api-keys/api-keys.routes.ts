import { Router } from 'express';
import { z } from 'zod';
import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { declareRoutes } from '../../lib/route-declaration.js';
import { dateTimeString as dateTime } from '../../lib/response-shapes.js';
import { idParam, text } from '../../lib/validate.js';
import { eventOrders } from '../checkout/index.js';
import { findEvent, type createEventsService } from '../events/index.js';
import type { TicketsService } from '../tickets/index.js';
import { requireScope, type ApiKeysService } from './api-keys.service.js';
import { API_KEY_SCOPES, type ApiKeyScope } from './api-keys.schema.js';

const apiKey = z.object({
  _id: z.string(),
  name: z.string(),
  prefix: z.string().meta({ description: 'The first characters of the key, to tell keys apart.' }),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  createdAt: dateTime,
  lastUsedAt: dateTime.nullable(),
  revokedAt: dateTime.nullable(),
});
const createBody = z.object({
  name: text('name', 60),
  scopes: z.array(z.enum(API_KEY_SCOPES, { error: `scopes: each one of ${API_KEY_SCOPES.join(', ')}.` })).min(1, 'Choose at least one scope.'),
});
const idParams = z.object({ id: idParam('Id') });

/** /api/api-keys: the signed-in organiser's keys (a session manages them; the keys themselves open /api/v1 only). */
export function createApiKeysRouter(deps: { apiKeys: ApiKeysService }) {
  const router = Router();
  const routes = declareRoutes(router, 'API keys');
  routes.get('/', { summary: 'Your API keys (never the keys themselves)', access: 'user', responses: { 200: { description: '`{apiKeys}`.', schema: z.object({ apiKeys: z.array(apiKey) }) } } }, ({ user }) =>
    deps.apiKeys.list(user),
  );
  routes.post(
    '/',
    {
      summary: 'Create an API key: the key is in this answer only',
      access: 'user',
      refuseRestricted: true,
      description: 'Scopes: `events:read`, `orders:read`, `attendees:read`, `checkins:write`. The key (`tk_live_…`) is stored as its SHA-256 and never shown again.',
      body: createBody,
      responses: { 201: { description: '`{apiKey, key}`.', schema: z.object({ apiKey, key: z.string() }) } },
    },
    ({ user, body }) => deps.apiKeys.create(user, body),
  );
  routes.delete(
    '/:id',
    { summary: 'Revoke an API key (at once; it stays in the list as revoked)', access: 'user', params: idParams, responses: { 200: { description: '`{apiKey}`.', schema: z.object({ apiKey }) }, 404: 'Not one of your live keys.' } },
    ({ user, params }) => deps.apiKeys.revoke(user, params.id),
  );
  return router;
}

const eventParams = z.object({ id: idParam('Event id') });
const checkInBody = z.object({ code: z.string({ error: 'code is required.' }).trim().min(1, 'code is required.').max(300, 'This ticket code is not valid.') });
const keyLogin = { code: 'api_key_invalid' as const, message: 'This API key is not valid or was revoked.' };

/**
 * /api/v1: what an organiser's own systems read and do with an API key, through the same services the app
 * uses. Only the key's organiser's events exist here (another organiser's event is 404).
 */
export function createApiV1Router(deps: { db: Database; apiKeys: ApiKeysService; events: ReturnType<typeof createEventsService>; tickets: TicketsService }) {
  const router = Router();
  router.use(deps.apiKeys.authenticate());
  const routes = declareRoutes(router, 'API (keys)');
  const scoped = (scope: ApiKeyScope) => ({ access: 'user' as const, apiKey: true, login: keyLogin, description: `Needs an API key with the \`${scope}\` scope.` });
  const ownEvent = async (userId: string, eventId: string) => {
    const event = await findEvent(deps.db, eventId);
    if (!event || event.userId !== userId) throw AppError.notFound('event_not_found', 'Event not found.');
  };

  routes.get('/events', { summary: "The key's organiser's events", ...scoped('events:read'), responses: { 200: 'The events, by date.', 403: 'The key lacks the scope.' } }, ({ user, req }) => {
    requireScope(req, 'events:read');
    return deps.events.listByUser(user.id);
  });
  routes.get(
    '/events/:id/orders',
    { summary: "An event's settled orders (paid, refund due, cancelled)", ...scoped('orders:read'), params: eventParams, responses: { 200: '`[{orderId, userId, quantity, amount, discount, feeAmount, status, createdAt}]`.', 403: 'The key lacks the scope.', 404: 'Not one of your events.' } },
    async ({ user, req, params }) => {
      requireScope(req, 'orders:read');
      await ownEvent(user.id, params.id);
      return eventOrders(deps.db, params.id);
    },
  );
  routes.get(
    '/events/:id/attendees',
    { summary: "An event's attendee list", ...scoped('attendees:read'), params: eventParams, responses: { 200: '`[{ticketId, userId, username, email, orderId, checkedInAt, issuedAt}]`.', 403: 'The key lacks the scope.', 404: 'Not one of your events.' } },
    async ({ user, req, params }) => {
      requireScope(req, 'attendees:read');
      await ownEvent(user.id, params.id);
      return deps.tickets.attendees(user, params.id);
    },
  );
  routes.post(
    '/events/:id/check-ins',
    {
      summary: 'Check a ticket in (its QR code); the first scan wins',
      ...scoped('checkins:write'),
      params: eventParams,
      body: checkInBody,
      responses: { 200: '`{message, ticket}`.', 403: 'The key lacks the scope.', 404: 'Not one of your events, or no such ticket.', 409: 'Already used, or void.' },
    },
    async ({ user, req, params, body }) => {
      requireScope(req, 'checkins:write');
      await ownEvent(user.id, params.id);
      return deps.tickets.checkIn(user, params.id, body.code, 'api');
    },
  );
  return router;
}
