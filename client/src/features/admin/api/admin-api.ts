/* Admin calls (docs/product.md /admin and /admpst). The bearer token is attached by the shared client. */
import { api } from '../../../lib/api-client';
import type { EventItem, UserResponse } from '../../../types/api';

const seg = (value: string) => encodeURIComponent(value);

/** Events imported by the scraper belong to this system user. */
export const SYSTEM_USER_ID = '000000000000000000000001';

/** GET /api/auth/user/:id -> the role (the stored user record has none). */
export async function getUserRole(userId: string, signal?: AbortSignal): Promise<string | undefined> {
  const { data } = await api.get<UserResponse>(`/auth/user/${seg(userId)}`, { signal });
  return data?.user?.role;
}

/** GET /api/events/getevnt with an admin token -> every event, whatever its status. */
export async function getAllEvents(signal?: AbortSignal): Promise<EventItem[]> {
  const { data } = await api.get<EventItem[]>('/events/getevnt', { signal });
  return Array.isArray(data) ? data : [];
}

/** PUT /api/events/admin/approve/:id {} -> the event. */
export async function approveEvent(id: string): Promise<EventItem> {
  const { data } = await api.put<EventItem>(`/events/admin/approve/${seg(id)}`, {});
  return data;
}

/** PUT /api/events/admin/disapprove/:id {} -> the event (back to pending). */
export async function disapproveEvent(id: string): Promise<EventItem> {
  const { data } = await api.put<EventItem>(`/events/admin/disapprove/${seg(id)}`, {});
  return data;
}

/** DELETE /api/events/:id with an admin token -> {msg}. */
export async function deleteEvent(id: string): Promise<void> {
  await api.delete(`/events/${seg(id)}`);
}
