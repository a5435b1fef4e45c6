import type { PayoutStatus } from './payouts.repository.js';

/** The English words of the payouts module's failures (the client's `errors` catalogs say them in English and Swahili). */
export const payoutMessages = {
  eventNotFound: 'Event not found.',
  userNotFound: 'User not found.',
  notOwner: "Only the organiser of this event or an administrator can see its payout statement.",
  payoutNotFound: 'Payout not found.',
  unknownAttempt: 'Unknown payout attempt (OriginatorConversationID).',
  resultDoubtful: (reason: string) => `Payout result not accepted: ${reason}`,
  retryOnlyFailed: (status: PayoutStatus) => `Only a failed payout can be retried; this one is ${status}.`,
  alreadyRetried: 'This failed payout was retried already: its money is payable again.',
  holdExists: "This event's payouts are already on hold.",
  noHold: "This event's payouts are not on hold.",
} as const;
