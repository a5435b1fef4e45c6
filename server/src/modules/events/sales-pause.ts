import type { Executor } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { createEventChangesRepository } from './event-changes.repository.js';
import { eventMessages } from './events.service.js';

/**
 * Refuses a new hold or registration while the organiser's changes that move the date or place, or raise
 * the price, wait for review (docs/decisions/events.md): buyers must not buy terms that are about to change.
 * Inside the registration's transaction (after its event row lock) the refusal is exact; before the paid
 * hold's single statement it is checked just ahead of it (see the decision for that narrow window).
 */
export async function refuseWhileSalesPaused(executor: Executor, eventId: string): Promise<void> {
  if (await createEventChangesRepository(executor).salesPaused(eventId)) {
    throw AppError.conflict('event_sales_paused', eventMessages.salesPaused);
  }
}
