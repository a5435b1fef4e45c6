import { payoutResultBody } from '@tukio/shared/internal-payouts';
import { z } from 'zod';
import { idParam, text } from '../../lib/validate.js';
import { PAYOUT_STATUSES } from './payouts.schema.js';

/** The payment service's call: the same schema types its client (@tukio/shared/internal-payouts). */
export { payoutResultBody as resultBody };

export const eventParams = z.object({ id: idParam('Event id') });
export const payoutParams = z.object({ id: idParam('Payout id') });
export const userParams = z.object({ id: idParam('User id') });
export const organiserParams = z.object({ organiserId: idParam('Organiser id') });

export const statementQuery = z.object({ format: z.enum(['json', 'csv'], { error: 'format must be json or csv.' }).default('json') });
/** A payout status, or `needs_attention`: those with a result refused for good. */
export const payoutListQuery = z.object({ status: z.enum([...PAYOUT_STATUSES, 'needs_attention'], { error: 'status must be sending, retrying, paid, failed or needs_attention.' }).optional() });

/** Kept with the hold and shown to administrators: it must say something. */
export const holdBody = z.object({ reason: text('reason', 500, 3) });
export const earlyPayoutsBody = z.object({ allowed: z.boolean({ error: 'allowed must be true or false.' }) });
