import { z } from 'zod';

/** Response body of POST /api/uploads, for the API document (`saveImage` says the same in TypeScript). */
export const savedImage = z.object({ url: z.string(), secure_url: z.string(), path: z.string(), type: z.string(), bytes: z.int() });
