import type { PersonalDataDeclaration } from '../../lib/personal-data.js';

/** The auth module's tables in the personal-data map (lib/personal-data.ts). Sessions are signed tokens, not rows. */
export const authPersonalData: PersonalDataDeclaration = {
  tables: [
    {
      table: 'users', onErase: 'anonymise',
      about: 'Your account: username, email, avatar, language, when it was verified, any suspension or ban.',
      subject: { id: 'id' },
      personal: { username: 'name', username_skeleton: 'name', email: 'email', avatar_image: 'image', guest_phone: 'phone' },
      secret: ['password_hash'],
    },
    {
      table: 'auth_tokens', onErase: 'delete',
      about: 'Email-verification and password-reset links sent to you: when, and whether used (the link itself is never kept).',
      subject: { user_id: 'id' },
      personal: {},
      secret: ['token_hash'],
    },
  ],
  notPersonal: { 'users.is_avatar_image_set': 'whether the avatar was chosen, a flag' },
};
