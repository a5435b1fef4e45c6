/*
 * PAYOUT ACCOUNT API (server/src/modules/payout-accounts, /api/docs "Payout account"): where the signed-in
 * organiser's payouts go. GET the state, POST a new destination (password; a code is sent by SMS), POST the code.
 */
import { api } from '../../../lib/api-client';
import type { DestinationRequest, PayoutMethod } from '../lib/destination-form';

/** A destination as its owner is shown it: the phone masked, a Paybill account number's end only. */
export interface MaskedDestination {
  method: PayoutMethod;
  phone?: string;
  shortcode?: string;
  accountReference?: string;
}

export interface PayoutAccount {
  active: (MaskedDestination & { confirmedAt: string }) | null;
  /** Payouts wait until then after a change (24 h); null when nothing holds them. */
  heldUntil: string | null;
  pending: { destination: MaskedDestination; codeSentTo: string; expiresAt: string; attemptsLeft: number } | null;
}

export const payoutAccountKey = ['payout-account'] as const;

export async function getPayoutAccount(signal?: AbortSignal): Promise<PayoutAccount> {
  return (await api.get<PayoutAccount>('/payout-account', { signal })).data;
}

export async function requestPayoutDestination(request: DestinationRequest): Promise<PayoutAccount> {
  return (await api.post<PayoutAccount>('/payout-account', request)).data;
}

export async function confirmPayoutDestination(code: string): Promise<PayoutAccount> {
  return (await api.post<PayoutAccount>('/payout-account/confirm', { code })).data;
}
