import { describe, expect, it } from 'vitest';
import { datesStillOpen, heldDates } from './series-dates';

const EVENT = 'e'.repeat(24);
const dates = [
  { _id: 'd-1', startsAt: '2026-12-05T08:00:00.000Z', endsAt: null, capacity: 30, status: 'active' as const },
  { _id: 'd-2', startsAt: '2026-12-12T08:00:00.000Z', endsAt: null, capacity: 30, status: 'active' as const },
  { _id: 'd-3', startsAt: '2026-12-19T08:00:00.000Z', endsAt: null, capacity: 30, status: 'active' as const },
];
const ticket = (seriesDate: string | null, extra: { voidedAt?: string | null; allDates?: boolean; eventId?: string } = {}) => ({
  event: { _id: extra.eventId ?? EVENT },
  voidedAt: extra.voidedAt ?? null,
  seriesDate: seriesDate ? { _id: seriesDate, startsAt: '' } : null,
  allDates: extra.allDates ?? false,
});

describe('the dates of a free series a person holds', () => {
  it('are the dates of their valid tickets for this event, each once', () => {
    const held = heldDates(
      [ticket('d-1'), ticket('d-1'), ticket('d-3'), ticket('d-2', { voidedAt: '2026-11-29T10:00:00.000Z' }), ticket('d-2', { eventId: 'o'.repeat(24) })],
      EVENT,
    );
    expect(held).toEqual({ dateIds: ['d-1', 'd-3'], pass: false });
  });

  it('leave the other dates open for one more registration each; a pass leaves none', () => {
    expect(datesStillOpen(dates, { dateIds: ['d-1', 'd-3'], pass: false }).map((date) => date._id)).toEqual(['d-2']);
    expect(datesStillOpen(dates, { dateIds: [], pass: false }).map((date) => date._id)).toEqual(['d-1', 'd-2', 'd-3']);
    expect(datesStillOpen(dates, heldDates([ticket(null, { allDates: true })], EVENT))).toEqual([]);
  });
});
