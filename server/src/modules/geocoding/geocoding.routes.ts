import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { apiDocs, shape } from '../../lib/openapi.js';
import { parse, text } from '../../lib/validate.js';
import type { GeocodingService } from './geocoding.service.js';

const geocodeQuery = z.object({ q: text('q', 200) });

/** GET /api/geocode?q= — the map preview of the event forms. `limit` spares a configured online geocoder. */
export function createGeocodingRouter(deps: { geocoding: GeocodingService; limit: RequestHandler }) {
  const router = Router();

  apiDocs(router, 'Geocoding').get('/', {
    summary: 'Coordinates of a place in Kenya (event form map preview)',
    auth: 'public',
    query: geocodeQuery,
    responses: {
      200: { description: '`{lat, lon, name}`; cached for a day.', schema: shape.object({ lat: 'number', lon: 'number', name: 'string' }) },
      404: 'No place found.',
      429: 'Too many lookups from this address.',
    },
  });
  router.get('/', deps.limit, async (req, res) => {
    const { q } = parse(geocodeQuery, req.query);
    const found = await deps.geocoding.geocode(q);
    if (!found) throw AppError.notFound(`No place found for "${q}".`);
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.json(found);
  });

  return router;
}
