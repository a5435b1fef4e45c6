import type { PersonalDataDeclaration } from '../../lib/personal-data.js';

/** The events module's tables in the personal-data map: events a user organises and the changes they proposed. */
export const eventsPersonalData: PersonalDataDeclaration = {
  tables: [
    {
      table: 'events', onErase: 'anonymise', keptOnErase: {title: "a past event is the public record its ticket holders and orders point to", description: "the public page of a past event", image: "the event's poster, not a picture of the organiser"},
      about: 'Events you organise.',
      subject: { user_id: 'id' },
      personal: { title: 'free-text', description: 'free-text', image: 'image' },
    },
    {
      table: 'event_pending_changes', onErase: 'delete',
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
