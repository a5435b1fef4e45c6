/*
 * Pure helpers for the forum post tree. Every list (top level and each `replies`) is newest first,
 * so a new post goes to the front of its list (docs/product.md). A post's `replies` are those loaded
 * so far and `replyCount` how many it has in all; both follow every local change. Deletion mirrors the
 * server: a post with replies becomes a "[deleted]" placeholder; one without is removed, and a
 * placeholder left without replies disappears with it.
 */
import type { ForumPost } from '../types';

export const DELETED_AUTHOR = { _id: '', username: '[deleted]' } as const;

/** Places `post` at the top of its parent's replies (or of the top level when `parent` is null). */
export function insertPost(posts: ForumPost[], post: ForumPost): ForumPost[] {
  if (post.parent === null) return [post, ...posts];
  let placed = false;
  const visit = (list: ForumPost[]): ForumPost[] =>
    list.map((node) => {
      if (placed) return node;
      if (node._id === post.parent) {
        placed = true;
        return { ...node, replies: [post, ...node.replies], replyCount: node.replyCount + 1 };
      }
      const replies = visit(node.replies);
      return replies === node.replies || !placed ? node : { ...node, replies };
    });
  const next = visit(posts);
  // A parent that is no longer in the tree (deleted meanwhile): show the post at the top level.
  return placed ? next : [{ ...post, parent: null }, ...posts];
}

/** Applies `patch` to the post with id `postId`. */
export function updatePost(posts: ForumPost[], postId: string, patch: Partial<ForumPost>): ForumPost[] {
  return updateNode(posts, postId, (node) => ({ ...node, ...patch }));
}

/** Removes a post the way the server does (placeholder when it has replies, loaded or not). */
export function removePost(posts: ForumPost[], postId: string): ForumPost[] {
  const visit = (list: ForumPost[]): ForumPost[] => {
    let changed = false;
    const next: ForumPost[] = [];
    for (const node of list) {
      if (node._id === postId) {
        changed = true;
        if (node.replyCount > 0) {
          next.push({ ...node, content: '[deleted]', user: { ...DELETED_AUTHOR }, deleted: true, myVote: 0 });
        }
        continue;
      }
      const replies = visit(node.replies);
      if (replies === node.replies) {
        next.push(node);
        continue;
      }
      changed = true;
      // One reply fewer when it went (a placeholder stays, and still counts).
      const replyCount = Math.max(0, node.replyCount - (node.replies.length - replies.length));
      // A placeholder that just lost its last reply goes too.
      if (node.deleted && replyCount === 0) continue;
      next.push({ ...node, replies, replyCount });
    }
    return changed ? next : list;
  };
  return visit(posts);
}

/**
 * Adds a page of `parentId`'s replies (newest first) after those already loaded, skipping any it holds
 * (the newest few came with the thread, a reply just posted is there already); `total` is the server's
 * count of its replies now.
 */
export function appendReplies(posts: ForumPost[], parentId: string, page: ForumPost[], total: number): ForumPost[] {
  return updateNode(posts, parentId, (node) => {
    const held = new Set(node.replies.map((reply) => reply._id));
    const replies = [...node.replies, ...page.filter((reply) => !held.has(reply._id))];
    return { ...node, replies, replyCount: Math.max(total, replies.length) };
  });
}

/** Replaces the post with id `postId` by `change(post)`, wherever it is in the tree. */
function updateNode(posts: ForumPost[], postId: string, change: (post: ForumPost) => ForumPost): ForumPost[] {
  let done = false;
  const visit = (list: ForumPost[]): ForumPost[] => {
    let changed = false;
    const next = list.map((node) => {
      if (done) return node;
      if (node._id === postId) {
        done = true;
        changed = true;
        return change(node);
      }
      const replies = visit(node.replies);
      if (replies === node.replies) return node;
      changed = true;
      return { ...node, replies };
    });
    return changed ? next : list;
  };
  return visit(posts);
}
