import { api } from '../../../lib/api-client';
import type { DeleteEventResult } from '../../../lib/event-deletion';
import type { ApiUser, TukioEvent, UserResponse } from '../../../types/api';

const id = (value: string) => encodeURIComponent(value);

/** GET /api/auth/user/:id (auth) -> {user} */
export async function getUser(userId: string, signal?: AbortSignal): Promise<ApiUser> {
  const { data } = await api.get<UserResponse>(`/auth/user/${id(userId)}`, { signal });
  return data.user;
}

export interface ProfileUpdate {
  username: string;
  email: string;
}

/** PUT /api/auth/user/:id (auth) {username, email} -> {user} */
export async function updateUser(userId: string, input: ProfileUpdate): Promise<ApiUser> {
  const { data } = await api.put<UserResponse>(`/auth/user/${id(userId)}`, input);
  return data.user;
}

/** GET /api/events/user/:userId (auth) -> the user's own events. */
export async function getUserEvents(userId: string, signal?: AbortSignal): Promise<TukioEvent[]> {
  const { data } = await api.get<TukioEvent[]>(`/events/user/${id(userId)}`, { signal });
  return Array.isArray(data) ? data : [];
}

/** DELETE /api/events/:id (auth, owner) -> {msg} or, when it had orders, {msg, cancelled: true}. */
export async function deleteEvent(eventId: string): Promise<DeleteEventResult> {
  const { data } = await api.delete<DeleteEventResult | undefined>(`/events/${id(eventId)}`);
  return data ?? {};
}
