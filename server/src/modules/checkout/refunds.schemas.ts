import { auditRequest, refundResultRequest, refundStatusSchema } from '@tukio/shared/internal-refunds';
import { z } from 'zod';
import { timePageQuery } from '../../lib/time-cursor.js';
import { idParam, text } from '../../lib/validate.js';

/** The internal calls of the payment service: the same schemas type its client (@tukio/shared/internal-refunds). */
export { auditRequest as auditBody, refundResultRequest as resultBody };

export const refundParams = z.object({ id: idParam('Refund id') });
export const refundListQuery = z.object({ status: refundStatusSchema.optional() });
export const refundPageQuery = refundListQuery.extend(timePageQuery(20));

export const eventParams = z.object({ id: idParam('Event id') });
/** Told to every ticket holder, so it must say something (3 characters at least) and stay readable. */
export const cancelBody = z.object({ reason: text('reason', 500, 3) });

/** The caller's tickets of one event to cancel (a holder may have at most a few orders' worth). */
export const selfCancelBody = z.object({
  ticketIds: z.array(idParam('Ticket id'), { error: 'ticketIds must be a list of ticket ids.' }).min(1, 'ticketIds must name at least one ticket.').max(50, 'ticketIds may name at most 50 tickets.'),
});
