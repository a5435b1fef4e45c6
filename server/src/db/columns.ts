import { customType, timestamp, varchar } from 'drizzle-orm/pg-core';

/** Column builders every module's `<module>.schema.ts` shares, so an id or a timestamp is declared one way. */

/** Ids are ObjectId-shaped (24 lowercase hex characters) because the client contract speaks `_id` strings. */
export const id = (name = 'id') => varchar(name, { length: 24 });
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const tsvector = customType<{ data: string }>({
  dataType() {
    return 'tsvector';
  },
});
