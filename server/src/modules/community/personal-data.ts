import type { PersonalDataDeclaration } from '../../lib/personal-data.js';

const hiddenBy = { hidden_by: 'withheld' } as const;

/** The community module's tables in the personal-data map: what a user wrote and voted. */
export const communityPersonalData: PersonalDataDeclaration = {
  tables: [
    { table: 'comments', onErase: 'anonymise', keptOnErase: {content: "a comment others may have read and answered stays, under \"Deleted user\""}, about: 'Comments you wrote on events.', subject: { user_id: 'id' }, otherUsers: hiddenBy, personal: { content: 'free-text' } },
    {
      table: 'reviews', onErase: 'anonymise', keptOnErase: {content: "a review counts in the event's rating and keeps its place, under \"Deleted user\""},
      about: 'Reviews you wrote (the organiser’s reply is theirs and left out).',
      subject: { user_id: 'id' },
      otherUsers: hiddenBy,
      personal: { content: 'free-text' },
      othersPersonal: { organiser_reply: 'free-text' },
    },
    { table: 'forum_threads', onErase: 'anonymise', keptOnErase: {title: "others posted in the thread: it keeps its title, under \"Deleted user\""}, about: 'Forum threads you started.', subject: { user_id: 'id' }, otherUsers: hiddenBy, personal: { title: 'free-text' } },
    { table: 'forum_posts', onErase: 'anonymise', keptOnErase: {content: "a post in a thread others answered keeps its place, under \"Deleted user\""}, about: 'Forum posts you wrote.', subject: { user_id: 'id' }, otherUsers: hiddenBy, personal: { content: 'free-text' } },
    { table: 'post_votes', onErase: 'anonymise', about: 'Your votes on forum posts.', subject: { user_id: 'id' }, personal: {} },
  ],
};
