import { z } from 'zod';
import { idParam, text } from '../../lib/validate.js';
import { LEDGER_ACCOUNTS } from './ledger.schema.js';

const account = (field: string) => z.enum(LEDGER_ACCOUNTS, { error: `${field} must be one of ${LEDGER_ACCOUNTS.join(', ')}.` });

/** An administrator's correction: whole shillings from one account to another, with the reason kept beside it. */
export const adjustmentBody = z.object({
  debitAccount: account('debitAccount'),
  creditAccount: account('creditAccount'),
  eventId: idParam('Event id').optional(),
  amount: z
    .int({ error: 'amount must be a whole number of shillings.' })
    .min(1, 'amount must be more than 0.')
    .max(100_000_000, 'amount must be at most 100,000,000 shillings.'),
  reason: text('reason', 500, 3),
});

export const balancesQuery = z.object({ eventId: idParam('Event id').optional() });
export const eventParams = z.object({ id: idParam('Event id') });
