/*
 * Blocking in chat (server/src/modules/chat: /api/messages/blocks): shared because chat blocks and the
 * profile page lists and unblocks.
 */
import { api } from './api-client';

export interface BlockedUser {
  _id: string;
  username: string;
  blockedAt: string;
}

const seg = (value: string) => encodeURIComponent(value);

/** GET /api/messages/blocks -> {blocked}, newest first. */
export async function getBlockedUsers(signal?: AbortSignal): Promise<BlockedUser[]> {
  const { data } = await api.get<{ blocked?: BlockedUser[] }>('/messages/blocks', { signal });
  return Array.isArray(data?.blocked) ? data.blocked : [];
}

/** PUT /api/messages/blocks/:userId: neither side can message the other; they no longer see me in contacts. */
export async function blockUser(userId: string): Promise<void> {
  await api.put(`/messages/blocks/${seg(userId)}`, null);
}

/** DELETE /api/messages/blocks/:userId */
export async function unblockUser(userId: string): Promise<void> {
  await api.delete(`/messages/blocks/${seg(userId)}`);
}
