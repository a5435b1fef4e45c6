import { describe, expect, it } from 'vitest';
import { destinationRequest, emptyDestinationForm, normaliseCode } from './destination-form';

describe('destinationRequest', () => {
  it('sends an M-Pesa number in its stored form, without a code phone', () => {
    expect(destinationRequest({ ...emptyDestinationForm, phone: '0712 345 678', password: 'pw' })).toEqual({
      ok: true,
      request: { password: 'pw', destination: { method: 'mpesa', phone: '254712345678' } },
    });
  });

  it('asks for a Paybill account number and a phone for the code', () => {
    const result = destinationRequest({ ...emptyDestinationForm, method: 'paybill', shortcode: '247247', password: 'pw' });
    expect(result).toEqual({ ok: false, errors: { accountReference: 'payouts.accountRequired', codePhone: 'payouts.phoneInvalid' } });
  });

  it('builds a Paybill or Till request with the code phone', () => {
    expect(destinationRequest({ ...emptyDestinationForm, method: 'paybill', shortcode: ' 247247 ', accountReference: ' ACC-1 ', codePhone: '+254 712 345 678', password: 'pw' })).toEqual({
      ok: true,
      request: { password: 'pw', destination: { method: 'paybill', shortcode: '247247', accountReference: 'ACC-1' }, codePhone: '254712345678' },
    });
    expect(destinationRequest({ ...emptyDestinationForm, method: 'till', shortcode: '5123456', accountReference: 'ignored', codePhone: '0712345678', password: 'pw' })).toEqual({
      ok: true,
      request: { password: 'pw', destination: { method: 'till', shortcode: '5123456' }, codePhone: '254712345678' },
    });
  });

  it('names every field to fix', () => {
    expect(destinationRequest({ ...emptyDestinationForm, phone: '12345' })).toEqual({ ok: false, errors: { password: 'payouts.passwordRequired', phone: 'payouts.phoneInvalid' } });
    expect(destinationRequest({ ...emptyDestinationForm, method: 'till', shortcode: '12', codePhone: '0712345678', password: 'pw' })).toEqual({
      ok: false,
      errors: { shortcode: 'payouts.tillInvalid' },
    });
  });
});

describe('normaliseCode', () => {
  it('accepts six digits with spaces or a dash, nothing else', () => {
    expect(normaliseCode('123 456')).toBe('123456');
    expect(normaliseCode('123-456')).toBe('123456');
    expect(normaliseCode('12345')).toBeNull();
    expect(normaliseCode('12345a')).toBeNull();
  });
});
