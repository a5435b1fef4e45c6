/** Helpers the event page uses to decide which community sections to show (docs/product.md /events/{id}). */

/** True once the event's date has passed: the forum summary and reviews are shown from then on. */
export function hasEventTakenPlace(date: string | null | undefined, now: number = Date.now()): boolean {
  if (!date) return false;
  const time = new Date(date).getTime();
  return !Number.isNaN(time) && time <= now;
}

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
