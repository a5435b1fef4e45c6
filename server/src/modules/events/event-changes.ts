/**
 * Which parts of an organiser's edit of a published event wait for review, and what a waiting set means
 * (docs/decisions/events.md, "Edits of a published event"). Pure functions: the service stores and applies.
 */
import type { EventChanges, EventRow } from './events.repository.js';
import type { UpdateEventInput } from './events.schemas.js';

/** A proposed set as stored: only the changed fields, `startsAt` as an ISO string. */
export type ProposedChanges = Partial<{
  title: string;
  description: string;
  image: string | null;
  startsAt: string;
  location: string;
  latitude: number | null;
  longitude: number | null;
  isPaid: boolean;
  ticketPrice: number;
  ticketPriceMax: number;
}>;

type Key = keyof ProposedChanges;

/** The field names a moderator and the organiser see (the contract's names; a price is one field). */
export type ReviewedField = 'title' | 'description' | 'image' | 'date' | 'location' | 'price';

interface Group {
  field: ReviewedField;
  /** The columns stored together (a place with its coordinates, a price with paid/free). */
  keys: readonly Key[];
  /** Whether the edit's body mentioned this part at all. */
  sent(input: UpdateEventInput): boolean;
  /** Whether the edit's value differs from the live row. */
  differs(live: EventRow, changes: EventChanges): boolean;
}

const plain = (field: 'title' | 'description' | 'image'): Group => ({
  field,
  keys: [field],
  sent: (input) => input[field] !== undefined,
  differs: (live, changes) => changes[field] !== undefined && changes[field] !== live[field],
});

/** Title, text, image, date, place and price are what a moderator must see before the public does. */
const GROUPS: readonly Group[] = [
  plain('title'),
  plain('description'),
  plain('image'),
  {
    field: 'date',
    keys: ['startsAt'],
    sent: (input) => input.date !== undefined,
    differs: (live, changes) => changes.startsAt !== undefined && changes.startsAt.getTime() !== live.startsAt.getTime(),
  },
  {
    field: 'location',
    keys: ['location', 'latitude', 'longitude'],
    sent: (input) => input.location !== undefined,
    differs: (live, changes) => changes.location !== undefined && changes.location !== live.location,
  },
  {
    field: 'price',
    keys: ['isPaid', 'ticketPrice', 'ticketPriceMax'],
    sent: (input) => input.isPaid !== undefined || input.ticketPrice !== undefined,
    differs: (live, changes) =>
      (changes.isPaid !== undefined && changes.isPaid !== live.isPaid) || (changes.ticketPrice !== undefined && changes.ticketPrice !== live.ticketPrice),
  },
];

function storedValue(changes: EventChanges, key: Key): unknown {
  const value = changes[key];
  return value instanceof Date ? value.toISOString() : value;
}

/**
 * Splits an organiser's edit of a published event: what applies at once (capacity, refund policy, new
 * coordinates for the same place) and the set waiting for review, which is the previous set with this
 * edit's parts laid over it. A part sent with the live value drops out of the set (the organiser took it
 * back); a part not sent keeps what was proposed before.
 */
export function splitEdit(live: EventRow, previous: ProposedChanges, input: UpdateEventInput, changes: EventChanges): { immediate: EventChanges; proposed: ProposedChanges } {
  const proposed: Record<string, unknown> = { ...previous };
  const immediate: EventChanges = { ...changes };
  for (const group of GROUPS) {
    const differs = group.differs(live, changes);
    if (group.sent(input) || differs) {
      for (const key of group.keys) delete proposed[key];
      if (differs) for (const key of group.keys) if (changes[key] !== undefined) proposed[key] = storedValue(changes, key);
    }
    // New coordinates for the place already published are no one's concern but the map's.
    const reviewedKeys = group.field === 'location' && !differs ? ['location'] : group.keys;
    for (const key of reviewedKeys) delete immediate[key as keyof EventChanges];
  }
  return { immediate, proposed: proposed as ProposedChanges };
}

/** The stored set as columns of the events table. */
export function toEventChanges(proposed: ProposedChanges): EventChanges {
  const { startsAt, ...rest } = proposed;
  return { ...rest, ...(startsAt !== undefined ? { startsAt: new Date(startsAt) } : {}) };
}

/** What a buyer must agree to: another date, another place, or a higher price. Such a set pauses sales. */
export function pausesSales(live: EventRow, proposed: ProposedChanges): boolean {
  if (proposed.startsAt !== undefined && new Date(proposed.startsAt).getTime() !== live.startsAt.getTime()) return true;
  if (proposed.location !== undefined && proposed.location !== live.location) return true;
  if (proposed.isPaid === undefined && proposed.ticketPrice === undefined) return false;
  const price = (paid: boolean, amount: number) => (paid ? amount : 0);
  return price(proposed.isPaid ?? live.isPaid, proposed.ticketPrice ?? live.ticketPrice) > price(live.isPaid, live.ticketPrice);
}

/** Whether an applied set moved the date or the place: the holders are then told. */
export function movesEvent(before: EventRow, after: EventRow): boolean {
  return before.startsAt.getTime() !== after.startsAt.getTime() || before.location !== after.location;
}

export interface FieldChange {
  field: ReviewedField;
  from: string | number | null;
  to: string | number | null;
}

/**
 * The set as a moderator reads it, one row per changed field, old and new side by side: dates as ISO strings
 * (the events' wall-clock convention), a price as shillings (0 = free), an image as the address to load.
 */
export function describeChanges(live: EventRow, proposed: ProposedChanges, imageUrl: (image: string | null) => string | null): FieldChange[] {
  const rows: FieldChange[] = [];
  const price = (paid: boolean, amount: number) => (paid ? amount : 0);
  for (const group of GROUPS) {
    if (!group.keys.some((key) => proposed[key] !== undefined)) continue;
    switch (group.field) {
      case 'title':
      case 'description':
        rows.push({ field: group.field, from: live[group.field], to: proposed[group.field] ?? live[group.field] });
        break;
      case 'image':
        rows.push({ field: 'image', from: imageUrl(live.image), to: imageUrl(proposed.image ?? null) });
        break;
      case 'date':
        rows.push({ field: 'date', from: live.startsAt.toISOString(), to: proposed.startsAt ?? null });
        break;
      case 'location':
        rows.push({ field: 'location', from: live.location, to: proposed.location ?? live.location });
        break;
      case 'price':
        rows.push({ field: 'price', from: price(live.isPaid, live.ticketPrice), to: price(proposed.isPaid ?? live.isPaid, proposed.ticketPrice ?? live.ticketPrice) });
        break;
    }
  }
  return rows;
}
