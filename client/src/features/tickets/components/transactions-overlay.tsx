/*
 * PROFILE › transaction-history overlay (docs/product.md /profile). GET
 * /api/transactions/:userId when opened: every payment attempt the server recorded, failed and
 * cancelled ones too, newest first, each with its refund when money goes back (event cancelled, sold
 * out). CSV export as transactions.csv.
 */
import { useState } from 'react';
import { useModalDialog } from '../../../hooks/use-modal-dialog';
import { Button } from '../../../components/ui/button';
import { useFetch } from '../../../hooks/use-fetch';
import { formatDateTime, formatKes, formatShillings } from '../../../lib/format';
import { getTransactionRecords, type TransactionRecord } from '../api/tickets-api';
import { saveCsv, toCsv } from '../lib/csv';
import '../tickets.css';

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

const STATUS_LABEL: Record<string, string> = { success: 'Paid', pending: 'Pending', failed: 'Failed', cancelled: 'Cancelled' };

interface RefundView {
  tone: 'pending' | 'success' | 'failed';
  /** E.g. 'Refunded KES 1,500'. */
  label: string;
  /** The refund's M-Pesa receipt, once paid. */
  receipt: string | null;
}

/** Where the money going back stands, in the buyer's words; null when nothing is refunded. */
function describeRefund(tx: TransactionRecord): RefundView | null {
  const amount = typeof tx.refundAmount === 'number' ? formatKes(tx.refundAmount) : null;
  switch (tx.refundStatus) {
    case 'due':
    case 'sent':
      return { tone: 'pending', label: amount ? `Refund of ${amount} on its way` : 'Refund on its way', receipt: null };
    case 'succeeded':
      return { tone: 'success', label: amount ? `Refunded ${amount}` : 'Refunded', receipt: tx.refundReceipt ?? null };
    case 'failed':
      return { tone: 'failed', label: 'Refund failed — we are retrying', receipt: null };
    default:
      return null;
  }
}

function RefundCell({ tx }: { tx: TransactionRecord }) {
  const refund = describeRefund(tx);
  if (!refund) return null;
  // Reads as one sentence ("Refunded KES 1,500 — receipt …"); it wraps between words, never inside the amount or the receipt.
  return (
    <span className={`tx-refund tx-refund--${refund.tone}`}>
      <span className="tx-refund__part">{refund.label}</span>
      {refund.receipt ? (
        <>
          {' '}
          <span>
            — receipt <span className="tx-refund__code">{refund.receipt}</span>
          </span>
        </>
      ) : null}
    </span>
  );
}

function StatusBadge({ tx }: { tx: TransactionRecord }) {
  const tone = tx.paymentStatus === 'success' ? 'success' : tx.paymentStatus === 'pending' ? 'pending' : 'failed';
  // Servers without the refund ledger only flag the order.
  const refund = !tx.refundStatus && tx.orderStatus === 'refund_due';
  return (
    <>
      <span className={`badge badge--${tone}`}>{refund ? 'Refund due' : (STATUS_LABEL[tx.paymentStatus] ?? tx.paymentStatus)}</span>
      {tx.resultDesc && tx.paymentStatus !== 'success' ? <span className="tx-reason">{tx.resultDesc}</span> : null}
    </>
  );
}

export function TransactionsOverlay({ userId }: { userId: string }) {
  const [open, setOpen] = useState(false);
  const dialogRef = useModalDialog(open);
  const { data, error, loading, reload } = useFetch(open ? `transactions:${userId}` : null, (signal) =>
    getTransactionRecords(userId, signal),
  );

  const rows = data ?? [];

  return (
    <>
      <Button variant="ghost" onClick={() => setOpen(true)} aria-haspopup="dialog">
        Transaction History
      </Button>
      <dialog
        ref={dialogRef}
        className="overlay-dialog transactions-dialog"
        aria-labelledby="transactions-heading"
        onClose={() => setOpen(false)}
      >
        <div className="overlay-dialog__header">
          <h2 id="transactions-heading">Transaction History</h2>
          <Button variant="secondary" className="btn--sm" onClick={() => setOpen(false)}>
            Close
          </Button>
        </div>
        {loading ? (
          <p className="muted" role="status">
            Loading transactions…
          </p>
        ) : error ? (
          <div className="transactions-dialog__error">
            <p className="form-message form-message--error" role="alert">
              Failed to fetch transactions. Please try again later.
            </p>
            <div className="button-row">
              <Button variant="secondary" onClick={reload}>
                Try again
              </Button>
              <Button onClick={() => setOpen(false)}>Close</Button>
            </div>
          </div>
        ) : rows.length === 0 ? (
          <p className="empty-state">No transactions yet.</p>
        ) : (
          <>
            <div className="table-scroll">
              <table className="data-table transactions-table">
                <caption className="visually-hidden">Your M-Pesa payments, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Event Name</th>
                    <th scope="col">Transaction ID</th>
                    <th scope="col">Phone Number</th>
                    <th scope="col">Amount</th>
                    <th scope="col">M-Pesa Receipt</th>
                    <th scope="col">Date</th>
                    <th scope="col">Status</th>
                    <th scope="col">Refund</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((tx, index) => (
                    <tr key={tx._id ?? (tx.checkoutRequestId || index)}>
                      <td data-label="Event Name">
                        {tx.name}
                        {tx.quantity && tx.quantity > 1 ? <span className="tx-reason">{tx.quantity} tickets</span> : null}
                      </td>
                      <td data-label="Transaction ID" className="mono">
                        {tx.checkoutRequestId}
                      </td>
                      <td data-label="Phone Number">{tx.phoneNumber}</td>
                      <td data-label="Amount">{formatShillings(tx.amount)}</td>
                      <td data-label="M-Pesa Receipt" className="mono">
                        {tx.mpesaReceiptNumber ?? '—'}
                      </td>
                      <td data-label="Date">{formatDateTime(tx.date || tx.createdAt)}</td>
                      <td data-label="Status">
                        <StatusBadge tx={tx} />
                      </td>
                      <td data-label="Refund">
                        <RefundCell tx={tx} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Button variant="secondary" onClick={() => saveCsv(transactionsCsv(rows), 'transactions.csv')}>
              Export CSV
            </Button>
          </>
        )}
      </dialog>
    </>
  );
}
