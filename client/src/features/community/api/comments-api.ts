/* Comments on an event (server/src/modules/community/comments.routes.ts). */
import { api } from '../../../lib/api-client';
import { pagePath } from '../../../lib/page-path';
import type { ListPage } from '../../../hooks/use-paged-list';
import type { EventComment } from '../types';

const seg = (value: string) => encodeURIComponent(value);

/** GET /api/comments/event/:eventId/paged (public) -> one page of the comments, newest first. */
export async function getCommentPage(eventId: string, cursor: string | null, signal?: AbortSignal): Promise<ListPage<EventComment>> {
  const { data } = await api.get<ListPage<EventComment>>(pagePath(`/comments/event/${seg(eventId)}/paged`, cursor), { signal });
  return data;
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
