/** Drizzle wraps driver errors ("Failed query: …"); the Postgres SQLSTATE sits on the error or its cause. */
export function pgErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 3 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export const isUniqueViolation = (error: unknown) => pgErrorCode(error) === '23505';
export const isForeignKeyViolation = (error: unknown) => pgErrorCode(error) === '23503';
/** A delete of a row other rows still name: a foreign key (23503 for NO ACTION, 23001 for ON DELETE RESTRICT). */
export const isStillReferenced = (error: unknown) => ['23503', '23001'].includes(pgErrorCode(error) ?? '');
/** Two transactions each waited for the other's row lock; PostgreSQL aborted this one, which may simply run again. */
export const isDeadlock = (error: unknown) => pgErrorCode(error) === '40P01';
/** A serializable (or repeatable read) transaction lost to a concurrent one; it too may simply run again. */
export const isSerializationFailure = (error: unknown) => pgErrorCode(error) === '40001';

/**
 * Runs a transaction again when PostgreSQL aborted it as a deadlock victim or a serialization failure (a
 * few times at most): the transaction that won has committed by then, so the next run reads its outcome
 * under the same locks and answers accordingly (a 409, usually) instead of a 500.
 */
export async function retryOnDeadlock<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= attempts || !(isDeadlock(error) || isSerializationFailure(error))) throw error;
    }
  }
}
