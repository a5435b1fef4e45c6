import { describe, expect, it } from 'vitest';
import type { TicketTypeView } from '../../../types/api';
import { isPlainPrice, newTypeRow, SOLD_FOR_EVERY, SOLD_FOR_PICKED, soldForChoices, typeErrorKey, typeInputs, typeRowsOf } from './ticket-type-rows';

/** "Sold for" of a ticket type row on an event series (docs/decisions/event-series.md): the buyer's pick, one date, or every date. */

const stored = (fields: Partial<TicketTypeView>): TicketTypeView => ({
  _id: 'type1',
  name: 'Day ticket',
  price: 500,
  capacity: null,
  salesStart: null,
  salesEnd: null,
  maxPerOrder: 10,
  sold: 0,
  seatsLeft: null,
  state: 'on_sale',
  ...fields,
});
const date = (id: string, status: 'active' | 'cancelled' = 'active') => ({ _id: id, startsAt: `2026-12-0${id.length}T18:00:00.000Z`, status });

describe('the "Sold for" of a ticket type row', () => {
  it('reads a stored type: a pass is every date, a date id that date, neither the buyer picks', () => {
    const [pass, day, picked] = typeRowsOf([stored({ allDates: true }), stored({ _id: 'type2', dateId: 'sat' }), stored({ _id: 'type3' })]);
    expect(pass!.soldFor).toBe(SOLD_FOR_EVERY);
    expect(day!.soldFor).toBe('sat');
    expect(picked!.soldFor).toBe(SOLD_FOR_PICKED);
  });

  it('sends dateId and allDates, and a stored choice round-trips unchanged', () => {
    const [pass, day, picked] = typeInputs([
      newTypeRow({ name: 'Pass', price: '1200', soldFor: SOLD_FOR_EVERY }),
      newTypeRow({ name: 'Saturday', price: '500', soldFor: 'sat' }),
      newTypeRow({ name: 'Any night', price: '400' }),
    ]);
    expect(pass).toMatchObject({ dateId: null, allDates: true });
    expect(day).toMatchObject({ dateId: 'sat', allDates: false });
    expect(picked).toMatchObject({ dateId: null, allDates: false });
    const [again] = typeInputs(typeRowsOf([stored({ dateId: 'sun' })]));
    expect(again).toMatchObject({ dateId: 'sun', allDates: false });
  });

  it('offers the buyer’s pick, each active date and every date only when there are two or more dates', () => {
    expect(soldForChoices([date('a')], [newTypeRow()])).toEqual([]);
    expect(soldForChoices([], [newTypeRow()])).toEqual([]);
    const choices = soldForChoices([date('a'), date('bb', 'cancelled'), date('ccc')], [newTypeRow()]);
    expect(choices.map((choice) => choice.value)).toEqual([SOLD_FOR_PICKED, 'a', 'ccc', SOLD_FOR_EVERY]);
    // A row still tied to a cancelled date shows it, so the form says what is stored.
    expect(soldForChoices([date('a'), date('bb', 'cancelled'), date('ccc')], [newTypeRow({ soldFor: 'bb' })]).map((choice) => choice.value)).toEqual([SOLD_FOR_PICKED, 'a', 'bb', 'ccc', SOLD_FOR_EVERY]);
  });

  it('is no plain price once tied to a date, and the server’s refusals land at the select', () => {
    expect(isPlainPrice([newTypeRow({ name: 'General admission', price: '500', soldFor: 'a' })])).toBe(false);
    expect(typeErrorKey('ticketTypes.1.dateId')).toBe('1.soldFor');
    expect(typeErrorKey('ticketTypes.0.allDates')).toBe('0.soldFor');
  });
});
