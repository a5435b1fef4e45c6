import { Router } from 'express';
import { z } from 'zod';
import { declareRoutes } from '../../lib/route-declaration.js';
import { dateTimeString as dateTime } from '../../lib/response-shapes.js';
import { idParam } from '../../lib/validate.js';
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES } from './webhooks.schema.js';
import type { Webhooks } from './webhooks.service.js';

const endpoint = z.object({ _id: z.string(), url: z.string(), events: z.array(z.string()), createdAt: dateTime });
const created = z.object({ endpoint, secret: z.string().meta({ description: 'The signing secret (`whsec_…`), shown this once.' }) });
const endpointList = z.object({ endpoints: z.array(endpoint) });
const delivery = z.object({
  _id: z.string(),
  endpointId: z.string(),
  url: z.string(),
  eventType: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  lastStatusCode: z.int().nullable(),
  lastError: z.string().nullable(),
  createdAt: dateTime,
  deliveredAt: dateTime.nullable(),
  attempts: z.array(z.object({ at: dateTime, statusCode: z.int().nullable(), error: z.string().nullable(), durationMs: z.int() })),
});
const deliveryLog = z.object({ deliveries: z.array(delivery) });

const addBody = z.object({
  url: z.string({ error: 'url is required.' }).trim().min(1, 'url is required.').max(2000, 'url is too long.'),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES, { error: `events: each one of ${WEBHOOK_EVENT_TYPES.join(', ')}.` })).min(1, 'Choose at least one event.'),
});
const idParams = z.object({ id: idParam('Id') });

/** /api/webhooks: the signed-in organiser's webhook endpoints and delivery log. */
export function createWebhooksRouter(deps: { webhooks: Webhooks }) {
  const { webhooks } = deps;
  const router = Router();
  const routes = declareRoutes(router, 'Webhooks');

  routes.get('/', { summary: 'Your webhook endpoints', access: 'user', responses: { 200: { description: '`{endpoints}` (without their secrets).', schema: endpointList } } }, ({ user }) =>
    webhooks.endpoints(user.id),
  );
  routes.post(
    '/',
    {
      summary: 'Add a webhook endpoint: answers its signing secret, this once',
      access: 'user',
      refuseRestricted: true,
      description:
        'Deliveries are JSON `{id, type, createdAt, data}` POSTed with the Standard Webhooks headers `webhook-id`, `webhook-timestamp` and `webhook-signature` ' +
        '(`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` with the base64 key after `whsec_`). Only https addresses on the public internet.',
      body: addBody,
      responses: { 201: { description: '`{endpoint, secret}`.', schema: created }, 400: 'Not an https address on the public internet, or no events.' },
    },
    ({ user, body }) => webhooks.addEndpoint(user.id, body),
  );
  routes.delete(
    '/:id',
    { summary: 'Remove a webhook endpoint (its log stays)', access: 'user', params: idParams, responses: { 200: 'Removed.', 404: 'Not one of your endpoints.' } },
    ({ user, params }) => webhooks.removeEndpoint(user.id, params.id),
  );
  routes.get(
    '/deliveries',
    { summary: 'Your latest 50 webhook deliveries with each attempt', access: 'user', responses: { 200: { description: '`{deliveries}`, newest first.', schema: deliveryLog } } },
    ({ user }) => webhooks.deliveries(user.id),
  );
  routes.post(
    '/deliveries/:id/send-again',
    { summary: 'Send a delivery again (a new round of attempts)', access: 'user', params: idParams, responses: { 202: 'Queued.', 404: 'Not one of your deliveries.' } },
    ({ user, params }) => webhooks.sendAgain(user.id, params.id),
  );
  return router;
}
