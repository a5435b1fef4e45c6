import { z } from 'zod';

/** Response body of GET /api/geocode, for the API document (`GeocodeResult` says the same in TypeScript). */
export const geocodeResult = z.object({ lat: z.number(), lon: z.number(), name: z.string() });
