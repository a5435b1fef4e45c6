/*
 * Community feature: comments, reviews and forums (SPEC §2, §3, §4, §9).
 *
 * Event page plug-ins (render inside /events/{id}):
 *   <CommentsSection eventId />                      always
 *   <ForumSummary eventId isRegistered />            once hasEventTakenPlace(event.date)
 *   <ReviewsSection eventId />                       once hasEventTakenPlace(event.date)
 * with isRegistered = isRegisteredFor(event, session.user?._id).
 *
 * Pages: ForumThreadsPage (/forums/{eventId}) and ForumThreadPage (/forum/{threadId}).
 */
export { CommentsSection } from './components/comments-section';
export { ReviewsSection } from './components/reviews-section';
export { ForumSummary } from './components/forum-summary';
export { EventCommunitySections } from './components/event-community-sections';
export { ForumThreadsPage } from './components/forum-threads-page';
export { ForumThreadPage } from './components/forum-thread-page';
export { hasEventTakenPlace, isRegisteredFor } from './lib/event-status';
