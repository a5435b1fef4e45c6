import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { parse, text } from '../../lib/validate.js';
import type { GeocodingService } from './geocoding.service.js';

const geocodeQuery = z.object({ q: text('q', 200) });

/** GET /api/geocode?q= — the map preview of the event forms. `limit` spares a configured online geocoder. */
export function createGeocodingRouter(deps: { geocoding: GeocodingService; limit: RequestHandler }) {
  const router = Router();

  router.get('/', deps.limit, async (req, res) => {
    const { q } = parse(geocodeQuery, req.query);
    const found = await deps.geocoding.geocode(q);
    if (!found) throw AppError.notFound(`No place found for "${q}".`);
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.json(found);
  });

  return router;
}
