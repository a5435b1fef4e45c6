/**
 * `npm run audit:payments [-- --ledger <url> | --journal <dir>]`: M-Pesa's side of the books against the API
 * server's ledger. Reads what the provider reports as completed — the Daraja simulator's ledger with
 * DARAJA_SIMULATOR, else the journal of callbacks in DATA_DIR/mpesa-journal — and posts it to the API server's
 * POST /api/internal/audit, organiser payouts included. Prints `N discrepancies` and each one, then any payout or
 * refund results the payment service parked (DATA_DIR/{payout,refund}-outbox/parked.log); exits 1 when there is
 * either, 2 when the
 * audit could not run. Same configuration as the payment service (.env, DATA_DIR, INTERNAL_API_KEY, API_URL).
 */
import path from 'node:path';
import { auditBooks, defaultProviderSource, providerBooks, type ProviderSource } from '../audit.js';
import { ConfigError, loadPaymentConfig } from '../config.js';
import { refundResultRequest } from '@tukio/shared/internal-refunds';
import { readParkedPayoutResults } from '../payouts/payout-outbox.js';
import { readParkedResults, type ParkedResult } from '../result-outbox.js';
import { c2bConfirmationRequest } from '@tukio/shared/internal-c2b';

function sourceOf(argv: string[], fallback: () => ProviderSource): ProviderSource {
  const value = (flag: string) => {
    const at = argv.indexOf(flag);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const ledgerUrl = value('--ledger');
  const journalDir = value('--journal');
  if (ledgerUrl) return { ledgerUrl };
  if (journalDir) return { journalDir };
  return fallback();
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help')) {
    console.log('Usage: npm run audit:payments [-- --ledger <simulator ledger URL, ?key=… included> | --journal <dir>]');
    return 0;
  }
  const config = loadPaymentConfig();
  const books = await providerBooks(sourceOf(argv, () => defaultProviderSource(config)));
  const result = await auditBooks(config, books);
  const count = result.discrepancies.length;
  const paidOut = books.payouts.reduce((sum, payout) => sum + payout.amount, 0);
  console.log(
    `Checked ${result.checked.payments} payments, ${result.checked.refunds} refunds and ${result.checked.payouts} organiser payouts (KSh ${paidOut}) M-Pesa reports as completed.`,
  );
  for (const payout of books.payouts) console.log(`  payout ${payout.kind} ${payout.transactionId} ${payout.attempt ?? payout.conversationId ?? payout.originatorConversationId} KSh ${payout.amount}`);
  for (const discrepancy of result.discrepancies) console.log(`  ${discrepancy.kind}: ${discrepancy.detail}`);
  console.log(`${count} discrepancies`);
  for (const notice of result.notices) console.log(`  notice, ${notice.kind}: ${notice.detail}`);
  // Results the API server refused for good: parked by the payment service for a person to compare with M-Pesa.
  const parked: Array<[string, string, ParkedResult[]]> = [
    ['payout', 'see GET /api/admin/payouts?status=needs_attention', readParkedPayoutResults(path.join(config.dataDir, 'payout-outbox'))],
    ['refund', 'the refund attempt stays sent: compare with the M-Pesa statement', readParkedResults(path.join(config.dataDir, 'refund-outbox'), refundResultRequest)],
  ];
  for (const [what, where, entries] of parked) {
    if (entries.length === 0) continue;
    console.log(`${entries.length} parked ${what} results (refused by the API server, not delivered again; ${where}):`);
    for (const entry of entries) {
      console.log(`  ${entry.result.originatorConversationId} ${entry.result.source} ${entry.result.resultCode} ${entry.result.transactionId ?? ''} parked ${entry.at}: ${entry.status ?? '?'} ${entry.reason}`);
    }
  }
  // Paybill confirmations the API server refused for good: money M-Pesa took that no order has yet (docs/decisions/paybill.md).
  const parkedPaybill = readParkedResults(path.join(config.dataDir, 'paybill-outbox'), c2bConfirmationRequest);
  if (parkedPaybill.length > 0) {
    console.log(`${parkedPaybill.length} parked Paybill confirmations (refused by the API server, not delivered again):`);
    for (const entry of parkedPaybill) console.log(`  ${entry.result.transId} KSh ${entry.result.amount} account ${entry.result.billRefNumber} parked ${entry.at}: ${entry.status ?? '?'} ${entry.reason}`);
  }
  return count > 0 || parked.some(([, , entries]) => entries.length > 0) || parkedPaybill.length > 0 ? 1 : 0;
}

// stdout to a pipe is written asynchronously: exit only once it has taken everything (a thousand payout lines
// printed just before process.exit() were cut short, last line "N discrepancies" included).
const exitAfterOutput = (code: number) => process.stdout.write('', () => process.exit(code));

main(process.argv.slice(2)).then(
  (code) => exitAfterOutput(code),
  (error: unknown) => {
    console.error(`[payments] audit failed: ${error instanceof ConfigError || error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
