import type { PersonalDataDeclaration } from '../../lib/personal-data.js';

/** Waitlist places are their holder's. */
export const waitlistPersonalData: PersonalDataDeclaration = {
  tables: [{ table: 'waitlist_entries', onErase: 'delete', about: 'Your places on waitlists of sold-out events, and offers made to you.', subject: { user_id: 'id' }, personal: {} }],
};
