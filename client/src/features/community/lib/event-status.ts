/**
 * Helpers the community pages use (docs/product.md /events/{id}). Whether an event has started (and so shows
 * the forum summary and reviews) is decided by src/lib/event-clock.ts alone.
 */

/** True when `userId` holds a ticket for the event (`registeredUsers` lists user ids). */
export function isRegisteredFor(
  event: { registeredUsers?: ReadonlyArray<unknown> | null } | null | undefined,
  userId: string | null | undefined,
): boolean {
  if (!event || !userId || !Array.isArray(event.registeredUsers)) return false;
  return event.registeredUsers.some((entry) => {
    if (typeof entry === 'string') return entry === userId;
    // Tolerate `{user: id}` / `{_id: id}` entries (docs/product.md mentions both shapes).
    if (entry && typeof entry === 'object') {
      const record = entry as Record<string, unknown>;
      return record.user === userId || record._id === userId || record.userId === userId;
    }
    return false;
  });
}
