import type { PulledTransaction, PullTransactionsResponse } from '@tukio/shared/internal-c2b';
import type { DarajaClient } from './daraja/daraja-client.js';
import type { Logger } from './logger.js';

/** At most this many pages per question: far more than a day of Paybill payments, and a stop if Daraja repeated a page. */
const MAX_PAGES = 200;

/**
 * Daraja's Pull Transactions API for reconciliation (docs/decisions/reconciliation.md): registers the paybill
 * shortcode once ("already registered" counts), then lists a time window's C2B payments, every page (OffSetValue is
 * a row offset, so the next page starts after the rows already read).
 */
export function createPullTransactions(deps: { daraja: DarajaClient; shortCode: string; nominatedNumber: string; callbackUrl: () => string; logger: Logger }) {
  let registered: Promise<void> | undefined;

  /** Registers once per process; a failure is forgotten so the next question tries again. */
  function register(): Promise<void> {
    const { registerPull } = deps.daraja;
    if (!registerPull) return Promise.reject(new Error('this Daraja client cannot pull transactions'));
    registered ??= registerPull({ nominatedNumber: deps.nominatedNumber, callbackUrl: deps.callbackUrl() }).then(
      () => deps.logger.info(`Pull Transactions registered with Daraja for ${deps.shortCode}`),
      (error: unknown) => {
        registered = undefined;
        throw error;
      },
    );
    return registered;
  }

  async function list(from: Date, to: Date): Promise<PullTransactionsResponse> {
    const { pullQuery } = deps.daraja;
    if (!pullQuery) throw new Error('this Daraja client cannot pull transactions');
    await register();
    const seen = new Map<string, PulledTransaction>();
    let offset = 0;
    for (let page = 0; page < MAX_PAGES; page++) {
      const rows = await pullQuery({ start: from, end: to, offset });
      if (rows.length === 0) break;
      for (const row of rows) {
        seen.set(row.transactionId, {
          transId: row.transactionId,
          billRefNumber: row.billreference ?? '',
          amount: Number(row.amount),
          // Daraja drops the country code (722000000).
          msisdn: /^254/.test(String(row.msisdn)) ? String(row.msisdn) : `254${String(row.msisdn).replace(/^0/, '')}`,
          completedAt: row.trxDate,
        });
      }
      offset += rows.length;
    }
    return { shortCode: deps.shortCode, transactions: [...seen.values()] };
  }

  return { register, list };
}

export type PullTransactions = ReturnType<typeof createPullTransactions>;
