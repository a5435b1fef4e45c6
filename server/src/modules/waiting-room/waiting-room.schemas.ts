import { phoneSchema } from '@tukio/shared/internal-api';
import { z } from 'zod';
import { idParam } from '../../lib/validate.js';

export const eventParams = z.object({ id: idParam('Event id') });

/** A guest (no token) names the phone their purchase is for; a signed-in buyer sends nothing. */
export const joinBody = z.object({
  phone: z.preprocess((value) => (value === '' ? undefined : value), phoneSchema.optional()).meta({ description: "A guest buyer's phone (254…), the one their purchase will use; ignored with a token." }),
});

export const placeQuery = z.object({
  phone: z.preprocess((value) => (value === '' ? undefined : value), phoneSchema.optional()).meta({ description: "A guest buyer's phone (254…), the one their purchase uses; ignored with a token." }),
});
