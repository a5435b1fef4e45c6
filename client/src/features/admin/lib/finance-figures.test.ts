import { describe, expect, it } from 'vitest';
import { financeFigures } from './finance-figures';

describe('financeFigures', () => {
  it('reads credits as amounts owed or earned, and adds the payouts in flight to what organisers are owed', () => {
    const figures = financeFigures({ mpesa_clearing: 10_000, organiser_payable: -7_000, payouts_in_flight: -1_500, refunds_payable: -500, platform_fees: -1_000, mpesa_charges: 58 });
    expect(Object.fromEntries(figures.map((figure) => [figure.id, figure.amount]))).toEqual({
      shortcode: 10_000,
      owedToOrganisers: 8_500,
      owedToBuyers: 500,
      platformRevenue: 1_000,
      mpesaCharges: 58,
    });
  });

  it('shows zero as zero, not minus zero', () => {
    const figures = financeFigures({ mpesa_clearing: 0, organiser_payable: 0, payouts_in_flight: 0, refunds_payable: 0, platform_fees: 0, mpesa_charges: 0 });
    expect(figures.every((figure) => Object.is(figure.amount, 0))).toBe(true);
  });
});
