import { Router } from 'express';
import { declareRoutes } from '../../lib/route-declaration.js';
import type { RetentionService } from './retention.service.js';
import { eventParams, privacySettings, type PrivacySettings, shredBody, shredded } from './retention.schemas.js';

/** /api/admin/events/:id/shred — an administrator erases an ended event's personal data now (docs/decisions/data-rights.md). */
export function createAdminRetentionRouter(deps: { retention: RetentionService }) {
  const router = Router();
  const routes = declareRoutes(router, 'Your data');
  routes.post(
    '/events/:id/shred',
    {
      summary: "Erase an ended event's buyers' phone numbers, guest emails and gate device names now, with a reason",
      access: 'admin',
      description:
        'What the daily retention job does PERSONAL_DATA_RETENTION_DAYS after an event ends, done early. Amounts, dates and M-Pesa receipts stay. ' +
        'The reason is kept with the record and logged.',
      params: eventParams,
      body: shredBody,
      responses: {
        200: { description: '`{eventId, shreddedAt, rowsErased, reason}`.', schema: shredded },
        404: 'Event not found.',
        409: 'The event has not ended, has refunds still to pay, or was erased already (`code` says which).',
      },
    },
    ({ params, body, user }) => deps.retention.shredEvent(params.id, body.reason, user),
  );
  return router;
}

/** /api/privacy — the privacy notice's numbers and processors, from the settings the server runs on. */
export function createPrivacyRouter(deps: { settings: PrivacySettings }) {
  const router = Router();
  const routes = declareRoutes(router, 'Your data');
  routes.get(
    '/',
    {
      summary: 'What the privacy notice states: how long personal data is kept, and who receives it',
      access: 'public',
      responses: { 200: { description: '`{retentionDays, dataExportLinkHours, dataExportIntervalHours, deletionGraceDays, mailKeepDays, processors}`.', schema: privacySettings } },
    },
    () => deps.settings,
  );
  return router;
}
