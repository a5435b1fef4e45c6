import type { PersonalDataDeclaration } from '../../lib/personal-data.js';

/** The contact form's messages carry no account: they are found by the sender's email address. */
export const contactPersonalData: PersonalDataDeclaration = {
  tables: [
    {
      table: 'contact_messages', onErase: 'delete',
      about: 'Messages sent through the contact form from your email address.',
      subject: { email: 'email' },
      personal: { name: 'name', email: 'email', subject: 'free-text', message: 'free-text' },
    },
  ],
};
