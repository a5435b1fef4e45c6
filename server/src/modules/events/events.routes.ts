import { Router, type RequestHandler } from 'express';
import { isId } from '../../db/ids.js';
import { AppError } from '../../lib/app-error.js';
import { requireAdmin, requireSelf, requireUser } from '../../lib/auth.js';
import { parse } from '../../lib/validate.js';
import {
  createEventBody,
  eventIdParams,
  listLimitQuery,
  searchQuery,
  shareBody,
  updateEventBody,
  userIdParams,
} from './events.schemas.js';
import { eventMessages, type EventsService } from './events.service.js';

/** For reads, an id that cannot exist is simply an unknown event. */
function readableId(value: unknown): string {
  if (!isId(value)) throw AppError.notFound(eventMessages.notFound);
  return value;
}

const popularLimit = listLimitQuery(10);
const upcomingLimit = listLimitQuery(20);

/**
 * /api/events. Fixed paths come before `/:id` so they are never read as ids. `counterLimit` guards
 * the public counters (opens, shares) that feed the trending ranking.
 */
export function createEventsRouter(deps: { events: EventsService; counterLimit: RequestHandler }) {
  const { events } = deps;
  const router = Router();

  router.get('/', async (req, res) => {
    res.json(await events.search(parse(searchQuery, req.query)));
  });

  router.get('/getevnt', async (req, res) => {
    res.json(await events.list(req.user));
  });

  // Public despite the path: the home and events pages read it.
  router.get('/admin/approved', async (_req, res) => {
    res.json(await events.listApproved());
  });

  router.get('/admin/pending', async (req, res) => {
    requireAdmin(req);
    res.json(await events.listPending());
  });

  router.put('/admin/approve/:id', async (req, res) => {
    requireAdmin(req);
    const { id } = parse(eventIdParams, req.params);
    res.json(await events.setStatus(id, 'approved'));
  });

  router.put('/admin/disapprove/:id', async (req, res) => {
    requireAdmin(req);
    const { id } = parse(eventIdParams, req.params);
    res.json(await events.setStatus(id, 'pending'));
  });

  router.get('/popular', async (req, res) => {
    res.json(await events.popular(parse(popularLimit, req.query)));
  });

  router.get('/upcoming', async (req, res) => {
    res.json(await events.upcoming(parse(upcomingLimit, req.query)));
  });

  router.get('/user/:userId', async (req, res) => {
    const { userId } = parse(userIdParams, req.params);
    requireSelf(req, userId, { allowAdmin: true });
    res.json(await events.listByUser(userId));
  });

  router.post('/addevnt', async (req, res) => {
    const user = requireUser(req);
    res.status(201).json(await events.create(parse(createEventBody, req.body), user));
  });

  router.post('/incrementOpenedCount/:id', deps.counterLimit, async (req, res) => {
    const { id } = parse(eventIdParams, req.params);
    await events.countOpen(id);
    res.status(204).end();
  });

  router.post('/share-track/:id', deps.counterLimit, async (req, res) => {
    const { id } = parse(eventIdParams, req.params);
    const { platform } = parse(shareBody, req.body);
    res.json({ msg: 'Share recorded.', shares: await events.countShare(id, platform) });
  });

  router.get('/:id/related', async (req, res) => {
    res.json(await events.related(readableId(req.params.id), req.user));
  });

  router.get('/:id', async (req, res) => {
    res.json(await events.get(readableId(req.params.id), req.user));
  });

  router.put('/:id', async (req, res) => {
    const user = requireUser(req);
    const { id } = parse(eventIdParams, req.params);
    res.json(await events.update(id, parse(updateEventBody, req.body), user));
  });

  router.delete('/:id', async (req, res) => {
    const user = requireUser(req);
    const { id } = parse(eventIdParams, req.params);
    res.json(await events.remove(id, user));
  });

  return router;
}
