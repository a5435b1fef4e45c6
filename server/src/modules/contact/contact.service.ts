import type { Database } from '../../db/database.js';
import type { Mailer } from '../../lib/mailer.js';
import { createContactRepository } from './contact.repository.js';

export function createContactService(deps: { db: Database; mailer: Mailer; contactEmail: string }) {
  const messages = createContactRepository(deps.db);
  return {
    /** Stored first, so a mail outage never loses what a visitor wrote. */
    async submit(input: { name: string; email: string; subject: string; message: string }) {
      await messages.insert(input);
      await deps.mailer.send({
        to: deps.contactEmail,
        subject: `[Tukio contact] ${input.subject}`,
        text: `From: ${input.name} <${input.email}>\n\n${input.message}\n`,
      });
      return { msg: 'Thank you for reaching out! We will get back to you soon.' };
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;
