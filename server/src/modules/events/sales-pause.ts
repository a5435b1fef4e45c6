import type { Executor } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { createEventChangesRepository } from './event-changes.repository.js';
import { eventMessages } from './events.service.js';

/**
 * Refuses a free registration while the organiser's changes that move the date or place, or raise
 * the price, wait for review (docs/decisions/events.md): buyers must not buy terms that are about to change.
 * Inside the registration's transaction (after its event row lock) the refusal is exact; the paid hold reads the
 * pause with its pricing facts instead (`salesPausedError`).
 */
export async function refuseWhileSalesPaused(executor: Executor, eventId: string): Promise<void> {
  if (await createEventChangesRepository(executor).salesPaused(eventId)) throw salesPausedError();
}

/** The refusal itself, for the paid hold, which reads the pause with its pricing facts (checkout/sql/hold-order.sql). */
export const salesPausedError = () => AppError.conflict('event_sales_paused', eventMessages.salesPaused);
