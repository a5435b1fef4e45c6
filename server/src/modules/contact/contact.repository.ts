import type { Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { contactMessages } from './contact.schema.js';

/** Messages from the contact form; kept even when the mail to the team fails. */
export function createContactRepository(db: Executor) {
  return {
    async insert(message: { name: string; email: string; subject: string; message: string }): Promise<void> {
      await db.insert(contactMessages).values({ id: newId(), ...message });
    },
  };
}
