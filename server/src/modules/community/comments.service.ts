import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { requireOwner } from '../../lib/auth.js';
import type { AuthUser } from '../auth/index.js';
import { requireVisibleEvent, userRef } from './community.shared.js';
import { createCommentsRepository, type CommentRow } from './comments.repository.js';
import { createEventRefsRepository } from './event-refs.repository.js';

export const toComment = (row: CommentRow) => ({
  _id: row.id,
  content: row.content,
  user: userRef(row),
  event: row.eventId,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export type CommentView = ReturnType<typeof toComment>;

const commentNotFound = 'Comment not found.';

export function createCommentsService(deps: { db: Database }) {
  const comments = createCommentsRepository(deps.db);
  const eventRefs = createEventRefsRepository(deps.db);

  /** A comment on an event the viewer cannot see is answered like one that does not exist. */
  async function requireComment(id: string, viewer: AuthUser) {
    const comment = await comments.findById(id);
    if (!comment) throw AppError.notFound(commentNotFound);
    await requireVisibleEvent(eventRefs, comment.eventId, viewer, commentNotFound);
    return comment;
  }

  return {
    async listForEvent(eventId: string, viewer: AuthUser | undefined): Promise<CommentView[]> {
      await requireVisibleEvent(eventRefs, eventId, viewer);
      return (await comments.listForEvent(eventId)).map(toComment);
    },

    /** Any signed-in user may comment on any event they can see (docs/product.md: comments are always shown). */
    async add(user: AuthUser, eventId: string, content: string): Promise<CommentView> {
      await requireVisibleEvent(eventRefs, eventId, user);
      const id = await comments.insert({ eventId, userId: user.id, content });
      return toComment(await requireComment(id, user));
    },

    /** Only the author edits; an admin may delete but not put words in someone's mouth. */
    async update(user: AuthUser, commentId: string, content: string): Promise<CommentView> {
      const comment = await requireComment(commentId, user);
      requireOwner(user, comment.userId, { message: 'You can only edit your own comments.', allowAdmin: false });
      await comments.updateContent(commentId, content);
      return toComment(await requireComment(commentId, user));
    },

    async remove(user: AuthUser, commentId: string): Promise<void> {
      const comment = await requireComment(commentId, user);
      requireOwner(user, comment.userId, { message: 'You can only delete your own comments.' });
      await comments.delete(commentId);
    },
  };
}

export type CommentsService = ReturnType<typeof createCommentsService>;
