import type { BatchResponse } from '@tukio/shared/internal-api';
import { AppError } from './app-error.js';
import { appErrorBody } from './error-handler.js';

/**
 * A batch request's answer: `handle` runs for every item at once (so the services' own group commits
 * gather them into a few statements), and each item gets the status and body its own request would have:
 * `status` on success, a refusal's (an AppError's) status and error body otherwise. Anything else fails
 * the whole request, as it would have failed a single one; the batched calls are idempotent, so the caller
 * can send them again.
 */
export async function answerEach<Item>(items: Item[], status: number, handle: (item: Item) => Promise<unknown>): Promise<BatchResponse> {
  const results = await Promise.all(
    items.map(async (item) => {
      try {
        return { status, body: await handle(item) };
      } catch (error) {
        if (error instanceof AppError) return { status: error.status, body: appErrorBody(error) };
        throw error;
      }
    }),
  );
  return { results };
}
