import type { PersonalDataDeclaration } from '../../lib/personal-data.js';

/** API keys in the personal-data map: the names an organiser gave their keys; the hashes never leave. */
export const apiKeysPersonalData: PersonalDataDeclaration = {
  tables: [
    {
      table: 'api_keys', onErase: 'delete',
      about: 'The API keys you created for your events: name, scopes, when created, last used and revoked (never the key).',
      subject: { user_id: 'id' },
      personal: { name: 'free-text' },
      secret: ['key_hash'],
    },
  ],
};
