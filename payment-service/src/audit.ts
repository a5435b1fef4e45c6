import path from 'node:path';
import type { AuditRequest, AuditResponse } from '@tukio/shared/internal-refunds';
import { createApiServerClient } from './api-server-client.js';
import type { PaymentConfig } from './config.js';
import { readProviderJournal } from './provider-journal.js';

/** Where M-Pesa's side of the books is read: the simulator's ledger (a URL), or this service's journal of callbacks. */
export type ProviderSource = { ledgerUrl: string; key?: string | undefined } | { journalDir: string };

interface LedgerAnswer {
  payments: Array<{ receipt: string; amount: number; phone: string; checkoutRequestId?: string }>;
  refunds: Array<{ transactionId: string; originatorConversationId: string; amount: number; kind: 'b2c' | 'reversal' }>;
}

/**
 * The default source: with the Daraja simulator its ledger (GET /simulator/ledger with SIMULATOR_KEY on
 * DARAJA_BASE_URL), or, with real Daraja, the journal the payment service keeps in DATA_DIR.
 */
export function defaultProviderSource(config: PaymentConfig): ProviderSource {
  return config.simulator.enabled
    ? { ledgerUrl: `${config.daraja.baseUrl}/simulator/ledger`, key: config.simulator.key }
    : { journalDir: path.join(config.dataDir, 'mpesa-journal') };
}

/** What the provider reports as completed: STK payments, and payouts and reversals. */
export async function providerBooks(source: ProviderSource): Promise<AuditRequest> {
  if ('journalDir' in source) {
    const journal = readProviderJournal(source.journalDir);
    return {
      payments: journal.payments.map(({ receipt, amount, phone, checkoutRequestId }) => ({ receipt, amount, phone, checkoutRequestId })),
      refunds: journal.payouts.map(({ transactionId, originatorConversationId, amount, kind }) => ({ transactionId, originatorConversationId, amount, kind })),
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
    refunds: ledger.refunds.map(({ transactionId, originatorConversationId, amount, kind }) => ({ transactionId, originatorConversationId, amount, kind })),
  };
}

/** Sends the provider's books to the API server (POST /api/internal/audit), which compares them with the ledger. */
export async function auditPayments(config: PaymentConfig, source: ProviderSource = defaultProviderSource(config)): Promise<AuditResponse> {
  const books = await providerBooks(source);
  return createApiServerClient({ baseUrl: config.apiUrl, internalApiKey: config.internalApiKey, timeoutMs: 120_000 }).audit(books);
}
