import { z } from 'zod';
import { emailSchema, text } from '../../lib/validate.js';

export const contactBody = z.object({
  name: text('Name', 100),
  email: emailSchema,
  subject: text('Subject', 200),
  message: text('Message', 5000),
});

/** The contact form and chat share POST /api/auth/sendMessage; the body's shape tells them apart. */
export function isContactForm(body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  const record = body as Record<string, unknown>;
  return !('to' in record) && ('name' in record || 'subject' in record || 'email' in record);
}
