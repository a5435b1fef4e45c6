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
/** Two transactions each waited for the other's row lock; PostgreSQL aborted this one, which may simply run again. */
export const isDeadlock = (error: unknown) => pgErrorCode(error) === '40P01';
