import { api } from '../../../lib/api-client';
import type { ChatContact, ConversationMessage, DeliveredMessage, UnreadCounts, UserSearchPage } from '../types';

const seg = (value: string) => encodeURIComponent(value);

/** Messages per page of history (server PAGE_SIZE). */
export const HISTORY_PAGE_SIZE = 50;

/** GET /api/auth/allusers/:userId (auth, self) -> the people I have exchanged messages with, most recent first. */
export async function getContacts(userId: string, signal?: AbortSignal): Promise<ChatContact[]> {
  const { data } = await api.get<ChatContact[]>(`/auth/allusers/${seg(userId)}`, { signal });
  return Array.isArray(data) ? data : [];
}

/** GET /api/auth/users/search?q=&page= (auth) -> one page of users whose username starts with `q`. */
export async function searchUsers(q: string, page: number, signal?: AbortSignal): Promise<UserSearchPage> {
  const { data } = await api.get<UserSearchPage>('/auth/users/search', { params: { q, page }, signal });
  return { users: Array.isArray(data?.users) ? data.users : [], page: data?.page ?? page, hasMore: data?.hasMore === true };
}

/**
 * POST /api/messages/getmsg {from, to, before?} -> one page, oldest first.
 * `before` (the oldest createdAt already shown) pages further back.
 */
export async function getMessages(
  input: { from: string; to: string; before?: string | undefined },
  signal?: AbortSignal,
): Promise<ConversationMessage[]> {
  const body: Record<string, string> = { from: input.from, to: input.to };
  if (input.before) body.before = input.before;
  const { data } = await api.post<ConversationMessage[]>('/messages/getmsg', body, { signal });
  return Array.isArray(data) ? data : [];
}

/** POST /api/messages/addmsg {from, to, message} -> the stored message (used when the socket is down). */
export async function addMessage(input: { from: string; to: string; message: string }): Promise<DeliveredMessage> {
  const { data } = await api.post<DeliveredMessage>('/messages/addmsg', input);
  return data;
}

/** GET /api/messages/unread -> {[contactId]: count} */
export async function getUnreadCounts(signal?: AbortSignal): Promise<UnreadCounts> {
  const { data } = await api.get<UnreadCounts>('/messages/unread', { signal });
  return data && typeof data === 'object' ? data : {};
}

/** POST /api/messages/read/:contactId -> marks that conversation read. */
export async function markConversationRead(contactId: string): Promise<void> {
  await api.post(`/messages/read/${seg(contactId)}`, null);
}
