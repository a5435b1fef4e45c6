import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { declareRoutes } from '../../lib/route-declaration.js';
import { text } from '../../lib/validate.js';
import { geocodeResult } from './geocoding.responses.js';
import type { GeocodingService } from './geocoding.service.js';

const geocodeQuery = z.object({ q: text('q', 200) });

/** GET /api/geocode?q= — the map preview of the event forms. `limit` spares a configured online geocoder. */
export function createGeocodingRouter(deps: { geocoding: GeocodingService; limit: RequestHandler }) {
  const router = Router();

  declareRoutes(router, 'Geocoding').get(
    '/',
    {
      summary: 'Coordinates of a place in Kenya (event form map preview)',
      access: 'public',
      use: [deps.limit],
      query: geocodeQuery,
      responses: {
        200: { description: '`{lat, lon, name}`; cached for a day.', schema: geocodeResult },
        404: 'No place found.',
        429: 'Too many lookups from this address.',
      },
    },
    async ({ query, res }) => {
      const found = await deps.geocoding.geocode(query.q);
      if (!found) throw AppError.notFound('place_not_found', `No place found for "${query.q}".`, { params: { query: query.q } });
      res.setHeader('Cache-Control', 'public, max-age=86400');
      return found;
    },
  );

  return router;
}
