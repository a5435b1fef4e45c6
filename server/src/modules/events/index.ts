/** The events module's public face (docs/decisions/server-boundaries.md). */
export { createEventPageHandler } from './event-page.js';
export { eventListPageData } from './event-list-page.js';
export { canSeeEvent } from './event-visibility.js';
export { createEventsImportService } from './events-import.service.js';
export { fetchImportSource, ImportSourceError } from './import-source.js';
export { countRegistrations, findEvent, markEventCancelled, organisesEvents, seedEvent } from './event-records.service.js';
export { createAdminEventsRouter, createEventsRouter } from './events.routes.js';
export { createEventsService, refundPolicyOf, type EventCancellation, type EventHoldings } from './events.service.js';
export { CAPACITY_MAX, numeric, optionalWallClock } from './events.schemas.js';
export { refuseWhileSalesPaused, salesPausedError } from './sales-pause.js';
export { eventSeries, nextEventDate, toEventDateDto, type EventDateDto, type EventDateRow } from './event-series.service.js';
/** Tables other modules may read in a join, never write (docs/decisions/server-boundaries.md, "Tables"). */
export { eventDates, events } from './events.schema.js';
export { FEE_MODES } from './events.schema.js';
export { eventsPersonalData } from './personal-data.js';
