/*
 * PROFILE › transaction-history overlay (docs/product.md /profile). GET
 * /api/transactions/:userId/paged when opened, a page at a time: every payment attempt the server
 * recorded, failed and cancelled ones too, newest first, each with its refund when money goes back
 * (event cancelled, sold out). CSV export as transactions.csv, of every page.
 */
import { useState } from 'react';
import { useModalDialog } from '../../../hooks/use-modal-dialog';
import { Button } from '../../../components/ui/button';
import { LoadMore } from '../../../components/ui/load-more';
import { usePagedList } from '../../../hooks/use-paged-list';
import { formatDateTime, formatShillings } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { getTransactionPage, type TransactionRecord } from '../api/tickets-api';
import { saveCsv, toCsv } from '../lib/csv';
import '../../../styles/data-table.css';
import '../../../styles/overlay-dialog.css';
import '../tickets.css';
import { t, translatedLabels, useT } from '../../../lib/i18n';

// New columns go at the end: spreadsheets built on the first ones keep working.
const CSV_HEADER = ['Event Name', 'Transaction ID', 'Phone Number', 'Amount', 'Date', 'Status', 'Time', 'Refund Status', 'Refund Amount', 'Refund Receipt', 'M-Pesa Receipt'] as const;
const pad = (n: number) => String(n).padStart(2, '0');

function when(tx: TransactionRecord): Date | null {
  const raw = tx.date || tx.createdAt;
  const date = raw ? new Date(raw) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

/** Unambiguous local date and time for spreadsheets: 2026-03-01 and 14:05:09. */
const csvDate = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const csvTime = (d: Date) => `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;

export function transactionsCsv(rows: TransactionRecord[]): string {
  return toCsv(
    CSV_HEADER,
    rows.map((tx) => {
      const date = when(tx);
      return [
        tx.name,
        tx.checkoutRequestId,
        tx.phoneNumber,
        tx.amount,
        date ? csvDate(date) : '',
        tx.paymentStatus,
        date ? csvTime(date) : '',
        tx.refundStatus ?? '',
        tx.refundStatus ? (tx.refundAmount ?? '') : '',
        tx.refundReceipt ?? '',
        tx.mpesaReceiptNumber ?? '',
      ];
    }),
  );
}

const STATUS_LABEL: Readonly<Record<string, string>> = translatedLabels({ success: 'tickets.txPaid', pending: 'tickets.txPending', failed: 'tickets.txFailed', cancelled: 'tickets.txCancelled' });

interface RefundView {
  tone: 'pending' | 'success' | 'failed';
  /** E.g. 'Refunded Ksh.1,500'. */
  label: string;
  /** The refund's M-Pesa receipt, once paid. */
  receipt: string | null;
}

/** Where the money going back stands, in the buyer's words; null when nothing is refunded. */
function describeRefund(tx: TransactionRecord): RefundView | null {
  const amount = typeof tx.refundAmount === 'number' ? formatShillings(tx.refundAmount) : null;
  switch (tx.refundStatus) {
    case 'due':
    case 'sent':
      return { tone: 'pending', label: amount ? t('tickets.refundOfOnItsWay', { amount }) : t('tickets.refundOnItsWay'), receipt: null };
    case 'succeeded':
      return { tone: 'success', label: amount ? t('tickets.refundedAmount', { amount }) : t('tickets.refunded'), receipt: tx.refundReceipt ?? null };
    case 'failed':
      return { tone: 'failed', label: t('tickets.refundRetrying'), receipt: null };
    default:
      return null;
  }
}

function RefundCell({ tx }: { tx: TransactionRecord }) {
  const t = useT();
  const refund = describeRefund(tx);
  if (!refund) return null;
  // Reads as one sentence ("Refunded Ksh.1,500 — receipt …"); it wraps between words, never inside the amount or the receipt.
  return (
    <span className={`tx-refund tx-refund--${refund.tone}`}>
      <span className="tx-refund__part">{refund.label}</span>
      {refund.receipt ? (
        <>
          {' '}
          <span>
            — {t('tickets.receipt')} <span className="tx-refund__code">{refund.receipt}</span>
          </span>
        </>
      ) : null}
    </span>
  );
}

function StatusBadge({ tx }: { tx: TransactionRecord }) {
  const t = useT();
  const tone = tx.paymentStatus === 'success' ? 'success' : tx.paymentStatus === 'pending' ? 'pending' : 'failed';
  // Servers without the refund ledger only flag the order.
  const refund = !tx.refundStatus && tx.orderStatus === 'refund_due';
  return (
    <>
      <span className={`badge badge--${tone}`}>{refund ? t('tickets.refundDue') : (STATUS_LABEL[tx.paymentStatus] ?? tx.paymentStatus)}</span>
      {tx.resultDesc && tx.paymentStatus !== 'success' ? <span className="tx-reason">{tx.resultDesc}</span> : null}
    </>
  );
}

export function TransactionsOverlay({ userId }: { userId: string }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const dialogRef = useModalDialog(open);
  const list = usePagedList(open ? `transactions:${userId}` : null, (cursor, signal) => getTransactionPage(userId, cursor, signal));
  const { error, loading, reload } = list;
  const rows = list.items;
  const [exporting, setExporting] = useState(false);

  /** The file holds every transaction, not only the pages shown: read page by page (each stays small). */
  const exportCsv = async () => {
    setExporting(true);
    try {
      const all: TransactionRecord[] = [];
      let cursor: string | null = null;
      do {
        const page = await getTransactionPage(userId, cursor);
        all.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor);
      saveCsv(transactionsCsv(all), 'transactions.csv');
    } catch {
      notify.error(t('tickets.transactionsFailed'));
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <Button variant="ghost" onClick={() => setOpen(true)} aria-haspopup="dialog">
        {t('tickets.transactionHistory')}
      </Button>
      <dialog
        ref={dialogRef}
        className="overlay-dialog transactions-dialog"
        aria-labelledby="transactions-heading"
        onClose={() => setOpen(false)}
      >
        <div className="overlay-dialog__header">
          <h2 id="transactions-heading">{t('tickets.transactionHistory')}</h2>
          <Button variant="secondary" className="btn--sm" onClick={() => setOpen(false)}>
            {t('tickets.close')}
          </Button>
        </div>
        {loading ? (
          <p className="muted" role="status">
            {t('tickets.loadingTransactions')}
          </p>
        ) : error ? (
          <div className="transactions-dialog__error">
            <p className="form-message form-message--error" role="alert">
              {t('tickets.transactionsFailed')}
            </p>
            <div className="button-row">
              <Button variant="secondary" onClick={reload}>
                {t('tickets.tryAgain')}
              </Button>
              <Button onClick={() => setOpen(false)}>{t('tickets.close')}</Button>
            </div>
          </div>
        ) : rows.length === 0 ? (
          <p className="empty-state">{t('tickets.noTransactions')}</p>
        ) : (
          <>
            <div className="table-scroll">
              <table className="data-table transactions-table">
                <caption className="visually-hidden">{t('tickets.paymentsCaption')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('tickets.colEventName')}</th>
                    <th scope="col">{t('tickets.colTransactionId')}</th>
                    <th scope="col">{t('tickets.colPhone')}</th>
                    <th scope="col">{t('tickets.colAmount')}</th>
                    <th scope="col">{t('tickets.colMpesaReceipt')}</th>
                    <th scope="col">{t('tickets.colDate')}</th>
                    <th scope="col">{t('tickets.colStatus')}</th>
                    <th scope="col">{t('tickets.colRefund')}</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((tx, index) => (
                    <tr key={tx._id ?? (tx.checkoutRequestId || index)}>
                      <td data-label={t('tickets.colEventName')}>
                        {tx.name}
                        {tx.quantity && tx.quantity > 1 ? <span className="tx-reason">{t('tickets.ticketCount', { count: tx.quantity })}</span> : null}
                      </td>
                      <td data-label={t('tickets.colTransactionId')} className="mono">
                        {tx.checkoutRequestId}
                      </td>
                      <td data-label={t('tickets.colPhone')}>{tx.phoneNumber}</td>
                      <td data-label={t('tickets.colAmount')}>
                        {formatShillings(tx.amount)}
                        {tx.fee ? <span className="tx-reason">{t(tx.feeMode === 'on_top' ? 'tickets.feeIncluded' : 'tickets.feeAbsorbed', { fee: formatShillings(tx.fee) })}</span> : null}
                      </td>
                      <td data-label={t('tickets.colMpesaReceipt')} className="mono">
                        {tx.mpesaReceiptNumber ?? '—'}
                      </td>
                      <td data-label={t('tickets.colDate')}>{formatDateTime(tx.date || tx.createdAt)}</td>
                      <td data-label={t('tickets.colStatus')}>
                        <StatusBadge tx={tx} />
                      </td>
                      <td data-label={t('tickets.colRefund')}>
                        <RefundCell tx={tx} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <LoadMore shown={rows.length} total={list.total} hasMore={list.hasMore} loading={list.loadingMore} error={list.loadMoreError} onLoadMore={list.loadMore} />
            <Button variant="secondary" loading={exporting} loadingText={t('tickets.loadingTransactions')} onClick={() => void exportCsv()}>
              {t('tickets.exportCsv')}
            </Button>
          </>
        )}
      </dialog>
    </>
  );
}
