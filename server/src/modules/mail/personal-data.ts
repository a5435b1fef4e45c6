import type { PersonalDataDeclaration } from '../../lib/personal-data.js';

/** Mail in the outbox is found by its recipient's address; its body carries sign-in and download links, never exported. */
export const mailPersonalData: PersonalDataDeclaration = {
  tables: [
    {
      table: 'mail_outbox', onErase: 'delete',
      about: 'Emails we sent you in the last days: purpose, status and when (not their text, which holds one-time links).',
      subject: { recipient: 'email' },
      personal: { recipient: 'email' },
      secret: ['body'],
    },
  ],
};
