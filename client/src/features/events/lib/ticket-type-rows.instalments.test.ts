import { beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogsForTests } from '../../../lib/i18n/catalogs-for-tests';
import { isPlainPrice, newTypeRow, typeErrorKey, typeInputs, validateTypeRows } from './ticket-type-rows';

/** A ticket type's instalment plan in the organiser's form (docs/decisions/instalments.md). */

beforeAll(async () => {
  await loadCatalogsForTests();
});

describe('the plan fields of a ticket type row', () => {
  const row = newTypeRow({ name: 'General admission', price: '1000', instalmentPercent: '30', instalmentDue: '2026-12-10T18:00', instalmentFee: '50' });

  it('sends the plan, or null without a deposit percent', () => {
    expect(typeInputs([row])[0]!.instalments).toEqual({ depositPercent: 30, dueDate: '2026-12-10T18:00', cancellationFee: 50 });
    expect(typeInputs([{ ...row, instalmentPercent: '' }])[0]!.instalments).toBeNull();
    expect(isPlainPrice([row])).toBe(false);
  });

  it('checks the percent, the due date and a fee below the deposit before sending', () => {
    expect(validateTypeRows([row])).toEqual({});
    expect(Object.keys(validateTypeRows([{ ...row, instalmentPercent: '95' }]))).toEqual(['0.instalmentPercent']);
    expect(Object.keys(validateTypeRows([{ ...row, instalmentDue: '' }]))).toEqual(['0.instalmentDue']);
    expect(Object.keys(validateTypeRows([{ ...row, instalmentFee: '300' }]))).toEqual(['0.instalmentFee']);
  });

  it('puts the server’s refusals of a plan at its fields', () => {
    expect(typeErrorKey('ticketTypes.0.instalments.dueDate')).toBe('0.instalmentDue');
    expect(typeErrorKey('ticketTypes.2.instalments.cancellationFee')).toBe('2.instalmentFee');
    expect(typeErrorKey('ticketTypes.1.instalments')).toBe('1.instalmentPercent');
  });
});
