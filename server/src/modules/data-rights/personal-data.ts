import type { PersonalDataDeclaration } from '../../lib/personal-data.js';

/** The data-rights module's own table in the personal-data map: a user's export requests (never the ZIP or its link). */
export const dataRightsPersonalData: PersonalDataDeclaration = {
  tables: [
    {
      table: 'data_exports',
      about: 'Your "Download my data" requests: when asked, made and downloaded.',
      subject: { user_id: 'id' },
      personal: {},
      secret: ['token_hash', 'archive'],
      onErase: 'delete',
    },
    {
      table: 'account_deletions',
      about: 'Your "Delete my account" requests: when asked, confirmed, undone or done (the links themselves are never kept).',
      subject: { user_id: 'id' },
      otherUsers: { requested_by: 'withheld', cancelled_by: 'withheld' },
      personal: {},
      secret: ['confirm_token_hash', 'undo_token_hash'],
      // The record that the account was erased (and, after an admin's deletion, by whom and why) stays.
      onErase: 'anonymise',
    },
  ],
};
