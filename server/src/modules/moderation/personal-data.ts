import type { PersonalDataDeclaration } from '../../lib/personal-data.js';

/** Moderation's tables in the personal-data map: the reports a user made, and the decisions taken about them. */
export const moderationPersonalData: PersonalDataDeclaration = {
  tables: [
    {
      table: 'reports', onErase: 'anonymise',
      about: 'Reports you made (whom they were about is left out).',
      subject: { reporter_id: 'id' },
      otherUsers: { target_user_id: 'withheld' },
      personal: { details: 'free-text' },
    },
    {
      table: 'moderation_actions', onErase: 'anonymise',
      about: 'Moderation decisions about you or your content (the moderator is left out).',
      subject: { target_user_id: 'id' },
      otherUsers: { admin_id: 'withheld' },
      personal: { excerpt: 'free-text' },
    },
  ],
};
