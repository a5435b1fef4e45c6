import { z } from 'zod';
import { idString as id } from '../../lib/response-shapes.js';
import { LEDGER_ACCOUNTS } from './ledger.schema.js';

/** Response bodies of the ledger routes, for the API document (the service's return values say the same in TypeScript). */

const shillings = z.int();

export const accountBalances = z
  .object(Object.fromEntries(LEDGER_ACCOUNTS.map((account) => [account, shillings])) as Record<(typeof LEDGER_ACCOUNTS)[number], typeof shillings>)
  .meta({ description: 'Each account\'s balance in whole shillings, debit positive and credit negative (a payable owed by Tukio is negative).' });

export const balances = z.object({ eventId: id.nullable(), balances: accountBalances });

export const adjusted = z.object({ transactionId: id, balances: accountBalances });

export const eventLedger = z.object({
  eventId: id,
  currency: z.literal('KES'),
  grossSales: shillings.meta({ description: "The organiser's share of every successful payment for the event (the payments less the platform fee)." }),
  reversed: shillings.meta({ description: 'Successes M-Pesa later contradicted (the money never came).' }),
  refunds: shillings.meta({ description: 'Refunds owed or paid to buyers of the event.' }),
  adjustments: shillings.meta({ description: "Administrators' corrections in the organiser's favour (negative: against)." }),
  balance: shillings.meta({ description: 'What Tukio owes the organiser for the event now: gross sales − reversed − refunds + adjustments.' }),
});
