import type { ListPage } from '../../../hooks/use-paged-list';
import { api } from '../../../lib/api-client';
import { pagePath } from '../../../lib/page-path';
import type { ChatContact, ConversationMessage, DeliveredMessage, UnreadCounts, UserSearchPage } from '../types';

const seg = (value: string) => encodeURIComponent(value);

/** GET /api/messages/contacts (auth) -> one page of the people I have exchanged messages with, most recent first. */
export async function getContactPage(cursor: string | null, signal?: AbortSignal): Promise<ListPage<ChatContact>> {
  const { data } = await api.get<ListPage<ChatContact>>(pagePath('/messages/contacts', cursor), { signal });
  return data;
}

/** GET /api/messages/contacts/:id (auth) -> one person to write to (a conversation opened by its link). */
export async function getContact(contactId: string, signal?: AbortSignal): Promise<ChatContact> {
  const { data } = await api.get<ChatContact>(`/messages/contacts/${encodeURIComponent(contactId)}`, { signal });
  return data;
}

/** GET /api/auth/users/search?q=&page= (auth) -> one page of users whose username starts with `q`. */
export async function searchUsers(q: string, page: number, signal?: AbortSignal): Promise<UserSearchPage> {
  const { data } = await api.get<UserSearchPage>('/auth/users/search', { params: { q, page }, signal });
  return { users: Array.isArray(data?.users) ? data.users : [], page: data?.page ?? page, hasMore: data?.hasMore === true };
}

/**
 * GET /api/messages/conversation/:contactId (auth) -> one page of my conversation with the contact,
 * newest first; `cursor` (the previous page's `nextCursor`) pages further back.
 */
export async function getConversationPage(contactId: string, cursor: string | null, signal?: AbortSignal): Promise<ListPage<ConversationMessage>> {
  const { data } = await api.get<ListPage<ConversationMessage>>(pagePath(`/messages/conversation/${seg(contactId)}`, cursor), { signal });
  return data;
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
