import type { PersonalDataDeclaration } from '../../lib/personal-data.js';

/** The events module's tables in the personal-data map: events a user organises and the changes they proposed. */
export const eventsPersonalData: PersonalDataDeclaration = {
  tables: [
    {
      table: 'events',
      about: 'Events you organise.',
      subject: { user_id: 'id' },
      personal: { title: 'free-text', description: 'free-text', image: 'image' },
    },
    {
      table: 'event_pending_changes',
      about: 'Changes you proposed to your events, waiting for approval or rejected.',
      subject: { proposed_by: 'id' },
      personal: { changes: 'free-text' },
    },
  ],
  notPersonal: {
    'events.location': 'the venue, a public place',
    'events.title_vector': 'the search index of the title, rebuilt from it',
    'events.location_vector': 'the search index of the venue',
  },
};
