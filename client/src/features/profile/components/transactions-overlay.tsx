/*
 * PROFILE › transaction-history overlay (SPEC §2 /profile, §9). GET /api/transactions/:userId
 * when opened; CSV export as transactions.csv.
 */
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useFetch } from '../../../hooks/use-fetch';
import { formatDateTime } from '../../../lib/format';
import type { Transaction } from '../../../types/api';
import { getTransactions } from '../api/profile-api';

const CSV_HEADER = ['Event Name', 'Transaction ID', 'Phone Number', 'Amount', 'Date', 'Status', 'Time'];

function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function exportCsv(rows: Transaction[]): void {
  const lines = [CSV_HEADER.join(',')];
  for (const tx of rows) {
    const when = tx.date || tx.createdAt;
    const date = when ? new Date(when) : null;
    const valid = date && !Number.isNaN(date.getTime());
    lines.push(
      [
        tx.name,
        tx.checkoutRequestId,
        tx.phoneNumber,
        tx.amount,
        valid ? date.toLocaleDateString() : '',
        tx.paymentStatus,
        valid ? date.toLocaleTimeString() : '',
      ]
        .map(csvCell)
        .join(','),
    );
  }
  const blob = new Blob([lines.join('\n')], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = 'transactions.csv';
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

export function TransactionsOverlay({ userId }: { userId: string }) {
  const [open, setOpen] = useState(false);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const { data, error, loading } = useFetch(open ? `transactions:${userId}` : null, (signal) =>
    getTransactions(userId, signal),
  );

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  const rows = data ?? [];

  return (
    <>
      <Button variant="ghost" onClick={() => setOpen(true)}>
        Transaction History
      </Button>
      <dialog
        ref={dialogRef}
        className="overlay-dialog"
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
          <p className="form-message form-message--error">Failed to fetch transactions. Please try again later.</p>
        ) : rows.length === 0 ? (
          <p className="empty-state">No transactions yet.</p>
        ) : (
          <>
            <div className="table-scroll">
              <table className="data-table">
                <thead>
                  <tr>
                    <th scope="col">Event</th>
                    <th scope="col">Transaction ID</th>
                    <th scope="col">Phone Number</th>
                    <th scope="col">Amount</th>
                    <th scope="col">Date</th>
                    <th scope="col">Status</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((tx, index) => (
                    <tr key={tx.checkoutRequestId || index}>
                      <td>{tx.name}</td>
                      <td className="mono">{tx.checkoutRequestId}</td>
                      <td>{tx.phoneNumber}</td>
                      <td>Ksh.{tx.amount}</td>
                      <td>{formatDateTime(tx.date || tx.createdAt)}</td>
                      <td>{tx.paymentStatus}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Button variant="secondary" onClick={() => exportCsv(rows)}>
              Export CSV
            </Button>
          </>
        )}
      </dialog>
    </>
  );
}
