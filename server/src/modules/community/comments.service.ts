import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { requireOwner } from '../../lib/auth.js';
import { toPage, type CursorKey, type Page } from '../../lib/keyset-page.js';
import { countWithinBytes } from '../../lib/page-budget.js';
import type { AuthUser } from '../auth/index.js';
import { moderatedText, requireVisibleEvent, userRef } from './community.shared.js';
import { createCommentsRepository, type CommentRow } from './comments.repository.js';
import { createEventRefsRepository } from './event-refs.repository.js';
import type { SpamBrakes } from './spam-brakes.js';

export const toComment = (row: CommentRow, viewer: AuthUser | undefined) => {
  const { text, ...hidden } = moderatedText(row, row.content, viewer);
  return {
    _id: row.id,
    content: text,
    user: userRef(row),
    event: row.eventId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    ...hidden,
  };
};

export type CommentView = ReturnType<typeof toComment>;

const commentNotFound = () => AppError.notFound('comment_not_found', 'Comment not found.');

export function createCommentsService(deps: { db: Database; brakes?: SpamBrakes | undefined }) {
  const comments = createCommentsRepository(deps.db);
  const eventRefs = createEventRefsRepository(deps.db);

  /** A comment on an event the viewer cannot see is answered like one that does not exist. */
  async function requireComment(id: string, viewer: AuthUser) {
    const comment = await comments.findById(id);
    if (!comment) throw commentNotFound();
    await requireVisibleEvent(eventRefs, comment.eventId, viewer, commentNotFound);
    return comment;
  }

  return {
    async listForEvent(eventId: string, viewer: AuthUser | undefined): Promise<CommentView[]> {
      await requireVisibleEvent(eventRefs, eventId, viewer);
      return (await comments.listForEvent(eventId)).map((row) => toComment(row, viewer));
    },

    /** One page of the comments, newest first (so a new comment never reappears on a later page). */
    async pageForEvent(eventId: string, viewer: AuthUser | undefined, page: { limit: number; cursor?: CursorKey | undefined }): Promise<Page<CommentView>> {
      await requireVisibleEvent(eventRefs, eventId, viewer);
      const [rows, total] = await Promise.all([comments.pageForEvent(eventId, { limit: page.limit + 1, after: page.cursor }), comments.countForEvent(eventId)]);
      const views = rows.map((row) => toComment(row, viewer));
      const sent = countWithinBytes(views, page.limit);
      return { ...toPage(rows, sent, total, (row) => [row.createdMicros, row.id]), items: views.slice(0, sent) };
    },

    /** Any signed-in user may comment on any event they can see (docs/product.md: comments are always shown). */
    async add(user: AuthUser, eventId: string, content: string): Promise<CommentView> {
      await requireVisibleEvent(eventRefs, eventId, user);
      await deps.brakes?.checkRate('comment', user);
      const held = await deps.brakes?.holdReason(user, content, eventId);
      const id = await comments.insert({ eventId, userId: user.id, content });
      if (held) await deps.brakes!.hold('comment', id, user.id, held);
      return toComment(await requireComment(id, user), user);
    },

    /** Only the author edits; an admin may delete but not put words in someone's mouth. */
    async update(user: AuthUser, commentId: string, content: string): Promise<CommentView> {
      const comment = await requireComment(commentId, user);
      requireOwner(user, comment.userId, { code: 'comment_edit_not_author', message: 'You can only edit your own comments.', allowAdmin: false });
      // An edit may add the link a new account could not post.
      const held = comment.hiddenAt ? null : await deps.brakes?.holdReason(user, content, comment.eventId);
      await comments.updateContent(commentId, content);
      if (held) await deps.brakes!.hold('comment', commentId, user.id, held);
      return toComment(await requireComment(commentId, user), user);
    },

    async remove(user: AuthUser, commentId: string): Promise<void> {
      const comment = await requireComment(commentId, user);
      requireOwner(user, comment.userId, { code: 'comment_delete_not_author', message: 'You can only delete your own comments.' });
      await comments.delete(commentId);
    },
  };
}

export type CommentsService = ReturnType<typeof createCommentsService>;
