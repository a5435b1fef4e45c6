import { sql } from 'drizzle-orm';
import type { RetentionDeclaration } from '../../lib/retention.js';

/** What checkout questions erase once an event's retention ends (lib/retention.ts): the buyers' answers. */
export const checkoutQuestionsRetention: RetentionDeclaration = {
  rows: [
    {
      table: 'checkout_answers',
      about: "Buyers' answers to the event's checkout questions: the answers go; which question and order they were for stays.",
      erase: { answer: sql`''` },
      rows: ({ eventId }) => sql`event_id = ${eventId}`,
    },
  ],
};
