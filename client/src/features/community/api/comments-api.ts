/*
 * Comments on an event (server/src/modules/community/comments.routes.ts). The list is shown on
 * every event page, so it is read with `fetch` (lib/public-get) like the event itself: a visitor's
 * event page downloads no axios. Writes go through the shared client.
 */
import { api } from '../../../lib/api-client';
import { fetchJson } from '../../../lib/public-get';
import type { EventComment } from '../types';

const seg = (value: string) => encodeURIComponent(value);

/** GET /api/comments/event/:eventId (public) -> {comments}, oldest first. */
export async function getComments(eventId: string, signal?: AbortSignal): Promise<EventComment[]> {
  const data = await fetchJson<{ comments?: EventComment[] } | undefined>(`/comments/event/${seg(eventId)}`, { signal, auth: true });
  return Array.isArray(data?.comments) ? data.comments : [];
}

/** POST /api/comments/add (auth) {content, eventId, userId} -> 201 {status, comment}. */
export async function addComment(input: { eventId: string; userId: string; content: string }): Promise<EventComment> {
  const { data } = await api.post<{ status: boolean; comment: EventComment }>('/comments/add', input);
  return data.comment;
}

/** PUT /api/comments/add/:commentId (author) {text} -> {status, comment}. */
export async function updateComment(commentId: string, text: string): Promise<EventComment> {
  const { data } = await api.put<{ status: boolean; comment: EventComment }>(`/comments/add/${seg(commentId)}`, { text });
  return data.comment;
}

/** DELETE /api/comments/:commentId/:userId (author or admin) -> {status}. */
export async function deleteComment(commentId: string, userId: string): Promise<void> {
  await api.delete(`/comments/${seg(commentId)}/${seg(userId)}`);
}
