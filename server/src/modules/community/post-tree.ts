import { PAGE_BYTES } from '../../lib/page-budget.js';
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

/** A post in our client's paged answers: a preview of its replies (newest first) and how many it has in all. */
export interface PostPreview extends Omit<PostView, 'replies'> {
  replies: PostPreview[];
  /** Its direct replies, "[deleted]" placeholders that keep replies included (the `total` of its reply pages). */
  replyCount: number;
}

/**
 * The views of `listed` (in their order), each with the replies among `below` attached under their
 * parents. `below` comes a level at a time (every parent before its replies), newest first within a
 * level; `replyCounts` holds each post's number of direct replies.
 */
export function buildPreviewTrees(
  listed: ReadonlyArray<Omit<PostRow, 'threadId'>>,
  below: ReadonlyArray<Omit<PostRow, 'threadId'>>,
  replyCounts: ReadonlyMap<string, number>,
  viewer: { id: string; role: string },
): PostPreview[] {
  const nodes = new Map<string, PostPreview>();
  const view = (row: Omit<PostRow, 'threadId'>): PostPreview => {
    const node: PostPreview = { ...toPostView(row, viewer), replies: [], replyCount: replyCounts.get(row.id) ?? 0 };
    nodes.set(row.id, node);
    return node;
  };
  const roots = listed.map(view);
  for (const row of below) {
    const node = view(row);
    if (row.parentId) nodes.get(row.parentId)?.replies.push(node);
  }
  return roots;
}

/** A post's JSON without its replies (the part it adds to an answer), plus the separating comma. */
const ownBytes = (post: PostPreview) => Buffer.byteLength(JSON.stringify({ ...post, replies: [] })) + 1;

/**
 * How many of `trees` an answer sends so that it stays within `budget` bytes of JSON (lib/page-budget.ts):
 * the listed posts first (at least one, at most as many as fit), then their replies a level at a time
 * while they fit. Replies left out are dropped from their parent's `replies` (its `replyCount` still
 * counts them, so the client offers to load them). Changes `trees` in place.
 */
export function fitPreviewsWithin(trees: PostPreview[], budget = PAGE_BYTES): number {
  let bytes = 0;
  let sent = 0;
  for (const tree of trees) {
    const size = ownBytes(tree);
    if (sent > 0 && bytes + size > budget) break;
    bytes += size;
    sent += 1;
  }
  let level = trees.slice(0, sent);
  let full = false;
  while (level.length > 0) {
    const next: PostPreview[] = [];
    for (const post of level) {
      let kept = 0;
      for (const reply of post.replies) {
        if (full) break;
        const size = ownBytes(reply);
        if (bytes + size > budget) {
          // Once one reply does not fit, none after it is sent: what is shown stays the newest of each list.
          full = true;
          break;
        }
        bytes += size;
        kept += 1;
        next.push(reply);
      }
      post.replies = post.replies.slice(0, kept);
    }
    level = next;
  }
  return sent;
}
