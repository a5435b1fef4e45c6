import { moderatedText, type HiddenFields, type UserRef } from './community.shared.js';
import type { PostRow } from './forums.repository.js';

export const DELETED_CONTENT = '[deleted]';
/** A deleted post keeps an author object so `post.user.username` never throws on the client; `_id` matches nobody. */
export const DELETED_USER = { _id: '', username: '[deleted]' } as const;

export interface PostView {
  _id: string;
  content: string;
  user: UserRef | typeof DELETED_USER;
  upvotes: number;
  myVote: number;
  parent: string | null;
  replies: PostView[];
  createdAt: string;
  deleted: boolean;
  hidden: boolean;
  hiddenReason?: string;
}

export function toPostView(row: Omit<PostRow, 'threadId'>, viewer: { id: string; role: string } | undefined): PostView {
  const deleted = row.deletedAt !== null;
  const { text, ...hidden }: { text: string } & HiddenFields = deleted ? { text: DELETED_CONTENT, hidden: false } : moderatedText(row, row.content, viewer);
  return {
    _id: row.id,
    content: text,
    user: deleted ? { ...DELETED_USER } : { _id: row.userId, username: row.username },
    upvotes: row.upvotes,
    myVote: row.myVote,
    parent: row.parentId ?? null,
    replies: [],
    createdAt: row.createdAt.toISOString(),
    deleted,
    ...hidden,
  };
}

/**
 * Builds the reply tree from a thread's posts in one pass, without recursion (a deep chain must not
 * exhaust the stack). Rows arrive newest first, so every list (top level and each `replies`) comes
 * out newest first, which is where the client places a new post. A post whose parent is missing
 * cannot occur (deletion keeps posts that have replies); should one appear it is shown at the top level.
 */
export function buildPostTree(rows: ReadonlyArray<Omit<PostRow, 'threadId'>>, viewer: { id: string; role: string }): PostView[] {
  const nodes = new Map<string, PostView>();
  for (const row of rows) nodes.set(row.id, toPostView(row, viewer));
  const roots: PostView[] = [];
  for (const row of rows) {
    const node = nodes.get(row.id)!;
    const parent = row.parentId ? nodes.get(row.parentId) : undefined;
    if (parent) parent.replies.push(node);
    else {
      node.parent = null;
      roots.push(node);
    }
  }
  return roots;
}
