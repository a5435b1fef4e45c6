import { z } from 'zod';
import { idParam } from '../../lib/validate.js';

export const eventParams = z.object({ id: idParam('Event id') });
export const dashboardQuery = z.object({
  format: z.enum(['json', 'csv'], { error: 'format must be json or csv.' }).default('json'),
  /** Which table `format=csv` answers. */
  table: z.enum(['sales', 'types', 'promo-codes'], { error: 'table must be sales, types or promo-codes.' }).default('sales'),
});
