import { api } from '../../../lib/api-client';
import type { MessageResponse } from '../../../types/api';

export interface ContactInput {
  name: string;
  email: string;
  subject: string;
  message: string;
}

/**
 * POST /api/auth/sendMessage with the contact-form shape. Sent without a bearer token so the
 * server treats it as a contact message, never as a chat message.
 */
export async function sendContactMessage(input: ContactInput): Promise<MessageResponse> {
  const { data } = await api.post<MessageResponse>('/auth/sendMessage', input, {
    skipAuth: true,
    skipSessionReset: true,
  });
  return data;
}
