import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthUser } from '../auth/index.js';
import type { CommentsService } from './comments.service.js';
import { requireVisibleEvent } from './community.shared.js';
import { createEventRefsRepository } from './event-refs.repository.js';
import type { ForumsService } from './forums.service.js';
import { createContentModerationRepository, type ContentKind, type ContentRow } from './moderation.repository.js';
import type { ReviewsService } from './reviews.service.js';

export type { ContentKind, ContentRow };

/** Posts of a thread shown to a moderator with a reported thread or post. */
const CONTEXT_POSTS = 30;

/**
 * What the moderation module may do with community content: find an item (as a reporter may see it),
 * show it in context, hide or show it again, delete it the way its author or an admin would.
 */
export function createContentModeration(deps: { db: Database; comments: CommentsService; reviews: ReviewsService; forums: ForumsService }) {
  const repo = createContentModerationRepository(deps.db);
  const eventRefs = createEventRefsRepository(deps.db);
  const notFound = (kind: ContentKind) => AppError.notFound('content_not_found', `That ${kind} does not exist.`);

  return {
    /** The item when `viewer` may see its event (and, for a post, it is not deleted); a 404 otherwise. */
    async findVisible(kind: ContentKind, id: string, viewer: AuthUser): Promise<ContentRow> {
      const row = await repo.find(kind, id);
      if (!row || row.deleted) throw notFound(kind);
      await requireVisibleEvent(eventRefs, row.eventId, viewer, () => notFound(kind));
      return row;
    },

    /** Undefined once the item is gone (deleted by its author or a moderator). */
    find: (kind: ContentKind, id: string) => repo.find(kind, id),

    /** The item's thread (the first posts) for a reported thread or post; nothing more for comments and reviews (the event is named on the item). */
    async context(row: ContentRow) {
      if (!row.threadId) return { posts: [] };
      const posts = await repo.threadPosts(row.threadId, CONTEXT_POSTS);
      return {
        posts: posts.map((post) => ({
          _id: post.id,
          parent: post.parentId,
          user: { _id: post.userId, username: post.username },
          content: post.deletedAt ? '[deleted]' : post.content,
          hidden: post.hiddenAt !== null,
          createdAt: post.createdAt.toISOString(),
        })),
      };
    },

    async setHidden(kind: ContentKind, id: string, hidden: { by: string; reason: string } | null) {
      if (!(await repo.setHidden(kind, id, hidden))) throw notFound(kind);
    },

    hideAllBy: (userId: string, hidden: { by: string; reason: string }) => repo.hideAllBy(userId, hidden),

    /** Deleted as the admin would from the page: a post with replies stays as "[deleted]". */
    async remove(kind: ContentKind, id: string, admin: AuthUser) {
      switch (kind) {
        case 'comment':
          return deps.comments.remove(admin, id);
        case 'review':
          return deps.reviews.remove(admin, id);
        case 'post':
          return deps.forums.deletePost(admin, id);
        case 'thread':
          return repo.deleteThread(id);
      }
    },
  };
}

export type ContentModeration = ReturnType<typeof createContentModeration>;
