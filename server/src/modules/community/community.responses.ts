import { z } from 'zod';
import { pageSchema } from '../../lib/keyset-page.js';
import { dateTimeString as dateTime, idString as id } from '../../lib/response-shapes.js';
import { PREVIEW_LEVELS, PREVIEW_REPLIES } from './forums.schemas.js';

/** Response bodies of the comments, reviews and forums routes, for the API document (the services' views say the same in TypeScript). */

const done = z.literal(true);

/** Moderation (docs/decisions/moderation.md): hidden words read `[hidden by a moderator]` except to their author and admins, who also get the reason. */
const hiddenFields = {
  hidden: z.boolean().meta({ description: 'Hidden by a moderator.' }),
  hiddenReason: z.string().optional().meta({ description: "The moderator's reason; only to the author and admins." }),
};

/** How an author is shown (`UserRef`). */
const author = z.object({ _id: id, username: z.string() });

export const statusOnly = z.object({ status: done });

export const commentResponse = z
  .object({ _id: id, content: z.string(), user: author, event: id, createdAt: dateTime, updatedAt: dateTime, ...hiddenFields })
  .meta({ id: 'Comment' });

export const commentList = z.object({ comments: z.array(commentResponse) });

export const commentPage = pageSchema(commentResponse);

export const statusComment = z.object({ status: done, comment: commentResponse });

export const reviewResponse = z
  .object({
    _id: id,
    content: z.string(),
    rating: z.int().min(1).max(5),
    user: author,
    event: id,
    createdAt: dateTime,
    updatedAt: dateTime,
    ...hiddenFields,
    verifiedAttendee: z.boolean().meta({ description: "The author's ticket was scanned at the door." }),
    organiserReply: z.object({ content: z.string(), createdAt: dateTime }).nullable().meta({ description: "The organiser's one public answer." }),
  })
  .meta({ id: 'Review' });

/** Whether the caller may review the event now, and if not why (the reasons POST /api/reviews/add would refuse for). */
const reviewEligibility = z
  .object({
    canReview: z.boolean(),
    reason: z.enum(['sign_in', 'restricted', 'no_ticket', 'too_early', 'already_reviewed']).nullable(),
  })
  .meta({
    id: 'ReviewEligibility',
    description:
      'Whether the caller may add a review: `reason` says why not (`sign_in`: a visitor; `restricted`: suspended or banned; `no_ticket`: holds no ticket to the event; `too_early`: it has not started; `already_reviewed`), null when they may.',
  });

export const reviewList = z.object({
  reviews: z.array(reviewResponse),
  average: z.number().meta({ description: 'One decimal; 0 when there are no reviews.' }),
  count: z.int(),
  eligibility: reviewEligibility,
});

export const reviewPage = pageSchema(reviewResponse).extend({
  average: z.number().meta({ description: 'Of all the reviews (one decimal; 0 when none is rated).' }),
  eligibility: reviewEligibility,
});

export const reviewAdded = z.object({ status: done, review: reviewResponse, msg: z.string() });

export const reviewOnly = z.object({ review: reviewResponse });

export const messageOnly = z.object({ msg: z.string() });

/** What every post answer says of the post itself (its replies differ: the whole tree, or a preview). */
const postFields = {
  _id: id,
  content: z.string().meta({ description: '`[deleted]` once deleted.' }),
  user: z.object({ _id: z.string(), username: z.string() }).meta({ description: "A deleted post's author is `{_id: '', username: '[deleted]'}`." }),
  upvotes: z.int(),
  myVote: z.int().min(-1).max(1).meta({ description: "The caller's vote: 1, -1 or 0." }),
  parent: id.nullable(),
};

/** A post and its replies, newest first at every level. */
export const forumPost: z.ZodType = z
  .object({
    ...postFields,
    get replies() {
      return z.array(forumPost);
    },
    createdAt: dateTime,
    deleted: z.boolean(),
    ...hiddenFields,
  })
  .meta({ id: 'ForumPost' });

/**
 * A post in our client's paged answers: like `ForumPost`, but with a preview of its replies (the newest
 * few, a few levels down) and how many it has; the rest come from its reply pages.
 */
export const forumPostPreview: z.ZodType = z
  .object({
    ...postFields,
    get replies() {
      return z.array(forumPostPreview).meta({ description: `Its newest replies, newest first: at most ${PREVIEW_REPLIES} a post, ${PREVIEW_LEVELS} levels below a listed post (fewer when the page's byte budget is reached).` });
    },
    replyCount: z.int().meta({ description: 'Its direct replies in all (`[deleted]` placeholders that keep replies included): more than `replies` holds means more to load from `GET /api/forums/posts/{postId}/replies`.' }),
    createdAt: dateTime,
    deleted: z.boolean(),
    ...hiddenFields,
  })
  .meta({ id: 'ForumPostPreview' });

const threadHead = { _id: id, title: z.string(), event: id, user: author, createdAt: dateTime, ...hiddenFields };
const replyCount = z.int().meta({ description: 'Visible posts in the thread.' });

export const threadSummaries = z.object({ threads: z.array(z.object({ ...threadHead, replies: replyCount })) });

const threadEntry = z.object({ ...threadHead, posts: z.array(id).meta({ description: "Ids of the thread's visible posts." }), replies: replyCount });

export const threadList = z.object({ thread: z.array(threadEntry) });

/** Without the post ids: a busy thread's would outweigh the page. */
export const threadPage = pageSchema(z.object({ ...threadHead, replies: replyCount }));

export const threadWithPosts = z.object({ status: done, thread: z.object({ ...threadHead, posts: z.array(forumPost) }) });

export const threadPostsPage = pageSchema(forumPostPreview).extend({
  thread: z.object(threadHead),
  posts: z.int().meta({ description: 'Visible posts in the whole thread, replies included (`total` counts the top-level posts).' }),
});

export const postReplyPage = pageSchema(forumPostPreview);

export const threadAdded = z.object({ status: done, thread: threadEntry });

export const postAdded = z.object({ status: done, post: forumPost });

export const voteResult = z.object({ status: done, upvotes: z.int(), myVote: z.int().min(-1).max(1) });
