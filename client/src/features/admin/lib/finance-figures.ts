/*
 * The ledger's balances (debit positive, credit negative) as an administrator reads them: each figure positive
 * when it is what its name says. Catalog keys admin.*.
 */
import type { LedgerBalances } from '../api/finance-api';

export interface FinanceFigure {
  id: 'shortcode' | 'owedToOrganisers' | 'owedToBuyers' | 'platformRevenue' | 'mpesaCharges';
  label: string;
  hint: string;
  amount: number;
}

/**
 * Money in the shortcode (mpesa_clearing, an asset: debit); owed to organisers (organiser_payable and the
 * payouts on their way, both credits); owed to buyers (refunds_payable, credit); platform revenue (platform_fees,
 * credit); M-Pesa's charges (an expense: debit).
 */
export function financeFigures(balances: LedgerBalances): FinanceFigure[] {
  const owed = (value: number) => (value === 0 ? 0 : -value);
  return [
    { id: 'shortcode', label: 'admin.financeShortcode', hint: 'admin.financeShortcodeHint', amount: balances.mpesa_clearing },
    { id: 'owedToOrganisers', label: 'admin.financeOwedToOrganisers', hint: 'admin.financeOwedToOrganisersHint', amount: owed(balances.organiser_payable + balances.payouts_in_flight) },
    { id: 'owedToBuyers', label: 'admin.financeOwedToBuyers', hint: 'admin.financeOwedToBuyersHint', amount: owed(balances.refunds_payable) },
    { id: 'platformRevenue', label: 'admin.financePlatformRevenue', hint: 'admin.financePlatformRevenueHint', amount: owed(balances.platform_fees) },
    { id: 'mpesaCharges', label: 'admin.financeMpesaCharges', hint: 'admin.financeMpesaChargesHint', amount: balances.mpesa_charges },
  ];
}
