import type { Database } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { contactMessages } from '../../db/schema.js';
import type { Mailer } from '../../lib/mailer.js';

export function createContactService(deps: { db: Database; mailer: Mailer; contactEmail: string }) {
  return {
    /** Stored first, so a mail outage never loses what a visitor wrote. */
    async submit(input: { name: string; email: string; subject: string; message: string }) {
      await deps.db.insert(contactMessages).values({ id: newId(), ...input });
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
