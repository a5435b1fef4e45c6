import { quantitySchema } from '@tukio/shared/internal-api';
import { z } from 'zod';
import { idParam } from '../../lib/validate.js';

export const eventParams = z.object({ id: idParam('Event id') });

/** Seats the person wants, as a purchase counts them (1 when left out). */
export const joinBody = z.object({ quantity: quantitySchema.default(1) });
