/** The geocoding module's public face (docs/decisions/server-boundaries.md). */
export { createGeocodingRouter } from './geocoding.routes.js';
export { createGeocodingService, type GeocodingService } from './geocoding.service.js';
