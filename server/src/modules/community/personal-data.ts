import type { PersonalDataDeclaration } from '../../lib/personal-data.js';

const hiddenBy = { hidden_by: 'withheld' } as const;

/** The community module's tables in the personal-data map: what a user wrote and voted. */
export const communityPersonalData: PersonalDataDeclaration = {
  tables: [
    { table: 'comments', about: 'Comments you wrote on events.', subject: { user_id: 'id' }, otherUsers: hiddenBy, personal: { content: 'free-text' } },
    {
      table: 'reviews',
      about: 'Reviews you wrote (the organiser’s reply is theirs and left out).',
      subject: { user_id: 'id' },
      otherUsers: hiddenBy,
      personal: { content: 'free-text' },
      othersPersonal: { organiser_reply: 'free-text' },
    },
    { table: 'forum_threads', about: 'Forum threads you started.', subject: { user_id: 'id' }, otherUsers: hiddenBy, personal: { title: 'free-text' } },
    { table: 'forum_posts', about: 'Forum posts you wrote.', subject: { user_id: 'id' }, otherUsers: hiddenBy, personal: { content: 'free-text' } },
    { table: 'post_votes', about: 'Your votes on forum posts.', subject: { user_id: 'id' }, personal: {} },
  ],
};
