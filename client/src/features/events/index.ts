/*
 * Events feature: home sections, search, the event page layout, the plan/edit/admin event forms.
 * The event page takes other features' parts as slots (EventDetailView's ticketBox, comments, afterEvent).
 * Stylesheets for pages: ./home.css, ./events-page.css, ./event-detail.css, ./event-form.css.
 */
export { getEvent, updateEvent } from './api/events-api';
export type { EventItem, EventUpdateInput, EventUpdateResult, NewEventInput } from './api/events-api';
export { getPopularEvents, getUpcomingEvents } from './api/public-events-api';
export { CancelEventButton } from './components/cancel-event-button';
export { EditEventForm } from './components/edit-event-form';
export { EventGrid, EventGridSkeleton } from './components/event-card';
export { EventCancelledBanner } from './components/event-cancelled-banner';
export { EventDetailView } from './components/event-detail-view';
export type { EventDetailViewProps } from './components/event-detail-view';
export { EventFilters } from './components/event-filters';
export { EventHero } from './components/event-hero';
export type { EventHeroProps } from './components/event-hero';
export { EventLoadFailure } from './components/event-load-failure';
export { EventSection } from './components/event-section';
export { Pagination } from './components/pagination';
export { PlanEventForm } from './components/plan-event-form';
export { ScrapedEventForm } from './components/scraped-event-form';
export { SeriesDatesPanel } from './components/series-dates-panel';
export { useEventDetail } from './hooks/use-event-detail';
export { eventsSearch, PAGE_SIZE, useEventSearch } from './hooks/use-event-search';
export { byDateAscending } from './lib/event-time';
