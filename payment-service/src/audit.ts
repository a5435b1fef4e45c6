import path from 'node:path';
import { PAYOUT_ATTEMPT_ID } from '@tukio/shared/internal-payouts';
import type { AuditRequest, AuditResponse } from '@tukio/shared/internal-refunds';
import { createApiServerClient } from './api-server-client.js';
import type { PaymentConfig } from './config.js';
import { readProviderJournal } from './provider-journal.js';

/** Where M-Pesa's side of the books is read: the simulator's ledger (a URL), or this service's journal of callbacks. */
export type ProviderSource = { ledgerUrl: string; key?: string | undefined } | { journalDir: string };

interface LedgerAnswer {
  payments: Array<{ receipt: string; amount: number; phone: string; checkoutRequestId?: string }>;
  refunds: Array<{ transactionId: string; originatorConversationId: string; amount: number; kind: 'b2c' | 'reversal' }>;
  /** Absent from simulators before B2B. */
  b2b?: Array<{ transactionId: string; originatorConversationId: string; conversationId: string; amount: number }>;
}

/**
 * An organiser payout M-Pesa reports as completed: B2C to a phone (named by our OriginatorConversationID) or B2B to a
 * Paybill or Till (named by Daraja's own ids; the journal also knows our attempt).
 */
export interface ProviderPayout {
  transactionId: string;
  originatorConversationId: string;
  conversationId?: string | undefined;
  /** Ours (tukio-payout-…), when known. */
  attempt?: string | undefined;
  amount: number;
  kind: 'b2c' | 'b2b';
}

/** M-Pesa's books: what the API server's audit compares (payments, refunds and organiser payouts). */
export type ProviderBooks = Required<Omit<AuditRequest, 'payouts'>> & { payouts: ProviderPayout[] };

/** M-Pesa does not know why a B2C payout was made: ours say so in their OriginatorConversationID. */
const isOrganiserPayout = (payout: { originatorConversationId: string; attempt?: string | undefined }) => PAYOUT_ATTEMPT_ID.test(payout.attempt ?? payout.originatorConversationId);

/**
 * The default source: with the Daraja simulator its ledger (GET /simulator/ledger with SIMULATOR_KEY on
 * DARAJA_BASE_URL), or, with real Daraja, the journal the payment service keeps in DATA_DIR.
 */
export function defaultProviderSource(config: PaymentConfig): ProviderSource {
  return config.simulator.enabled
    ? { ledgerUrl: `${config.daraja.baseUrl}/simulator/ledger`, key: config.simulator.key }
    : { journalDir: path.join(config.dataDir, 'mpesa-journal') };
}

/** What the provider reports as completed: STK payments, refund payouts and reversals, and organiser payouts. */
export async function providerBooks(source: ProviderSource): Promise<ProviderBooks> {
  if ('journalDir' in source) {
    const journal = readProviderJournal(source.journalDir);
    const refunds = journal.payouts.filter((payout) => !isOrganiserPayout(payout) && payout.kind !== 'b2b');
    return {
      payments: journal.payments.map(({ receipt, amount, phone, checkoutRequestId }) => ({ receipt, amount, phone, checkoutRequestId })),
      refunds: refunds.map(({ transactionId, originatorConversationId, amount, kind }) => ({ transactionId, originatorConversationId, amount, kind: kind as 'b2c' | 'reversal' })),
      payouts: journal.payouts
        .filter((payout) => !refunds.includes(payout))
        // A B2B payout is named by Daraja's ConversationID: the accepted request of our attempt says which.
        .map(({ transactionId, originatorConversationId, attempt, amount, kind }) => ({
          transactionId,
          originatorConversationId,
          conversationId: attempt ? journal.requests.get(attempt)?.conversationId : undefined,
          attempt,
          amount,
          kind: kind === 'b2b' ? 'b2b' : 'b2c',
        })),
    };
  }
  const where = source.ledgerUrl.replace(/([?&]key=)[^&]*/, '$1…');
  const response = await fetch(source.ledgerUrl, { headers: source.key ? { 'x-simulator-key': source.key } : {}, signal: AbortSignal.timeout(30_000) }).catch((error: unknown) => {
    // Most often the simulator is not running, or runs on another port than this command was given (SIMULATOR_PORT).
    throw new Error(`the Daraja simulator's ledger at ${where} could not be read (${error instanceof Error ? error.message : String(error)}): is npm start running, with the same SIMULATOR_PORT and DATA_DIR?`, { cause: error });
  });
  if (!response.ok) throw new Error(`${where} answered HTTP ${response.status}`);
  const ledger = (await response.json()) as LedgerAnswer;
  return {
    payments: ledger.payments.map(({ receipt, amount, phone, checkoutRequestId }) => ({ receipt, amount, phone, checkoutRequestId })),
    refunds: ledger.refunds.filter((refund) => !isOrganiserPayout(refund)).map(({ transactionId, originatorConversationId, amount, kind }) => ({ transactionId, originatorConversationId, amount, kind })),
    payouts: [
      ...ledger.refunds.filter(isOrganiserPayout).map(({ transactionId, originatorConversationId, amount }) => ({ transactionId, originatorConversationId, attempt: originatorConversationId, amount, kind: 'b2c' as const })),
      ...(ledger.b2b ?? []).map(({ transactionId, originatorConversationId, conversationId, amount }) => ({ transactionId, originatorConversationId, conversationId, amount, kind: 'b2b' as const })),
    ],
  };
}

/**
 * Sends the provider's payments, refunds and organiser payouts to the API server (POST /api/internal/audit),
 * which compares them with its payments, refunds, paid payout attempts and ledger.
 */
export async function auditBooks(config: PaymentConfig, books: ProviderBooks): Promise<AuditResponse> {
  const { payments, refunds } = books;
  const payouts = books.payouts.map(({ transactionId, originatorConversationId, conversationId, attempt, amount, kind }) => ({
    transactionId,
    // The API server names a B2C payout by our attempt's id (the journal knows it when Daraja answers with its own).
    originatorConversationId: kind === 'b2c' ? (attempt ?? originatorConversationId) : originatorConversationId,
    ...(conversationId ? { conversationId } : {}),
    amount,
    kind,
  }));
  return createApiServerClient({ baseUrl: config.apiUrl, internalApiKey: config.internalApiKey, timeoutMs: 120_000 }).audit({ payments, refunds, payouts });
}

/** The audit of M-Pesa's payments, refunds and organiser payouts against the API server's books (see auditBooks). */
export async function auditPayments(config: PaymentConfig, source: ProviderSource = defaultProviderSource(config)): Promise<AuditResponse> {
  return auditBooks(config, await providerBooks(source));
}
