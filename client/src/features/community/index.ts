/*
 * Community feature: comments, reviews and forums (docs/product.md).
 *
 * Event page parts, plugged into the events feature's EventDetailView slots by app/routes/event-detail.tsx:
 *   <CommentsSection eventId />                      always
 *   <ForumSummary eventId isRegistered />            once the event has taken place
 *   <ReviewsSection eventId />                       once the event has taken place
 *
 * Pages: ForumThreadsPage (/forums/{eventId}) and ForumThreadPage (/forum/{threadId}).
 */
export { CommentsSection } from './components/comments-section';
export { ReviewsSection } from './components/reviews-section';
export { ForumSummary } from './components/forum-summary';
export { ForumThreadsPage } from './components/forum-threads-page';
export { ForumThreadPage } from './components/forum-thread-page';
