/**
 * Money as Kenyans write it, the same in English and Kiswahili, on every screen, mail and SMS: 'Ksh.1,500'
 * (thousands separated; cents only when there are any: 'Ksh.1,500.50'). Prices are whole shillings (M-Pesa
 * takes no cents), so in practice no amount shows decimals.
 */
let shillingDigits: Intl.NumberFormat | undefined;

export function formatShillings(amount: number): string {
  // Built on first use and kept: creating an Intl formatter is the costly part, formatting with it is not.
  shillingDigits ??= new Intl.NumberFormat('en-KE', { minimumFractionDigits: 2, maximumFractionDigits: 2, trailingZeroDisplay: 'stripIfInteger' });
  return `Ksh.${shillingDigits.format(amount)}`;
}
