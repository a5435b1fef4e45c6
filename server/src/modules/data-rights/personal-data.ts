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
    },
  ],
};
