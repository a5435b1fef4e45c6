/*
 * Shapes of the community API (server/src/modules/community, docs/decisions/community.md).
 * Authors are always `{_id, username}`; ids are plain strings.
 */

export interface Author {
  _id: string;
  username: string;
}

export interface EventComment {
  _id: string;
  content: string;
  user: Author;
  event: string;
  createdAt: string;
  updatedAt?: string;
  /** Hidden by a moderator (the text is "[hidden by a moderator]" except for the author, who gets `hiddenReason`). */
  hidden?: boolean;
  hiddenReason?: string;
}

export interface EventReview {
  _id: string;
  content: string;
  /** Integer 1 to 5. */
  rating: number;
  /** The author's ticket was scanned at the door. */
  verifiedAttendee?: boolean;
  /** The organiser's one public answer. */
  organiserReply?: { content: string; createdAt: string } | null;
  user: Author;
  event: string;
  createdAt: string;
  updatedAt?: string;
  /** Hidden by a moderator (the text is "[hidden by a moderator]" except for the author, who gets `hiddenReason`). */
  hidden?: boolean;
  hiddenReason?: string;
}

/** A thread as listed on /forums/{eventId}. `posts` holds post ids; `replies === posts.length`. */
export interface ForumThreadListItem {
  _id: string;
  title: string;
  event: string;
  user: Author;
  posts?: string[];
  replies: number;
  createdAt: string;
  /** Hidden by a moderator: the title reads "[hidden by a moderator]" except for its author. */
  hidden?: boolean;
  hiddenReason?: string;
}

/** A thread as listed in the event page's summary (at most 3, newest first). */
export type ForumThreadSummary = Omit<ForumThreadListItem, 'posts'>;

export type Vote = 1 | -1 | 0;

export interface ForumPost {
  _id: string;
  content: string;
  /** `{_id: '', username: '[deleted]'}` on a deleted post that still has replies. */
  user: Author;
  /** Net score (ups minus downs); may be negative. */
  upvotes: number;
  /** The caller's own vote. */
  myVote: Vote;
  /** `null` at the top level, else the parent post's id. */
  parent: string | null;
  /** Newest first: the ones loaded so far (the thread page sends the newest few; more come on request). */
  replies: ForumPost[];
  /** Its direct replies in all, loaded or not ("[deleted]" placeholders that keep replies included). */
  replyCount: number;
  createdAt: string;
  deleted: boolean;
  /** Hidden by a moderator: the content reads "[hidden by a moderator]" except for its author, who gets `hiddenReason`. */
  hidden?: boolean;
  hiddenReason?: string;
}

/** A thread's head: what /forum/{threadId} shows above its posts. */
export interface ForumThreadHead {
  _id: string;
  title: string;
  event: string;
  user?: Author;
  createdAt?: string;
  hidden?: boolean;
  hiddenReason?: string;
}

/** The little the forum pages need to know about an event. */
export interface CommunityEventRef {
  _id: string;
  /** The organiser's user id. */
  user?: string;
  title?: string;
  date?: string;
  registeredUsers?: string[];
}
