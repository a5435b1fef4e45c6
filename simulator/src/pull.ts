import { randomUUID } from 'node:crypto';
import type { Request, Response, Router } from 'express';
import type { C2bPayment } from './c2b.js';

/**
 * Daraja's Pull Transactions API: a shortcode registers once (POST /pulltransactions/v1/register, no /mpesa
 * prefix), then asks for its C2B transactions between two times (POST /pulltransactions/v1/query), a page at a
 * time: OffSetValue is a row offset ("100" starts at row 101). Daraja keeps only the last 48 hours and pulls
 * only C2B. The rows are the simulator's completed menu payments, including those whose confirmation was lost.
 */
export interface PullSimulatorDeps {
  shortcode: string;
  fail: (res: Response, status: number, errorCode: string, errorMessage: string) => void;
  bearerValid: (req: Request) => boolean;
  /** The completed and refused C2B payments, newest first. */
  payments: () => C2bPayment[];
  /** Rows per page (Daraja does not document its own). */
  pageSize: number;
  now?: () => Date;
}

const HISTORY_MS = 48 * 3600_000;

/** Daraja's `YYYY-MM-DD HH:MM[:SS]`, read as UTC (the timezone is undocumented; the simulator picks one). */
export function pullTime(raw: unknown): Date | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})(?::(\d{2}))?$/.exec(String(raw ?? ''));
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match;
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0)));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** A payment as the query lists it: lowercase keys, msisdn a number without the country code, amount "500.00". */
const row = (payment: C2bPayment, organization: string) => ({
  transactionId: payment.transId,
  trxDate: payment.createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
  msisdn: Number(payment.phone.slice(3)),
  sender: 'SIMULATED PAYER',
  transactiontype: 'c2b-pay-bill-debit',
  billreference: payment.account,
  amount: payment.amount.toFixed(2),
  organizationname: organization,
});

export function createPullSimulator(deps: PullSimulatorDeps) {
  let registered = false;
  const now = deps.now ?? (() => new Date());

  function mount(api: Router) {
    api.post('/pulltransactions/v1/register', (req, res) => {
      if (!deps.bearerValid(req)) return deps.fail(res, 401, '401.001', 'Invalid Access Token');
      const body = (req.body ?? {}) as Record<string, unknown>;
      if (String(body.ShortCode ?? '') !== deps.shortcode) return deps.fail(res, 400, '400.001', 'Invalid ShortCode');
      if (body.RequestType !== 'Pull') return deps.fail(res, 400, '400.002.02', 'Bad Request - Invalid RequestType');
      if (!/^(0|254)\d{9}$/.test(String(body.NominatedNumber ?? ''))) return deps.fail(res, 400, '400.002.02', 'Bad Request - Invalid NominatedNumber');
      const already = registered;
      registered = true;
      res.json({
        ResponseRefID: randomUUID(),
        ResponseStatus: already ? '1001' : '1000',
        ShortCode: deps.shortcode,
        ResponseDescription: already ? 'Shortcode already registered' : 'Shortcode Registered Successfully',
      });
    });

    api.post('/pulltransactions/v1/query', (req, res) => {
      if (!deps.bearerValid(req)) return deps.fail(res, 401, '401.001', 'Invalid Access Token');
      const body = (req.body ?? {}) as Record<string, unknown>;
      if (String(body.ShortCode ?? '') !== deps.shortcode || !registered) return deps.fail(res, 400, '400.001', 'Invalid ShortCode');
      const start = pullTime(body.StartDate);
      const end = pullTime(body.EndDate);
      if (!start) return deps.fail(res, 400, '400.002.02', 'Bad Request - Invalid StartDate');
      if (!end) return deps.fail(res, 400, '400.002.02', 'Bad Request - Invalid EndDate');
      const offset = Number(body.OffSetValue ?? '0');
      if (!Number.isInteger(offset) || offset < 0) return deps.fail(res, 400, '400.002.02', 'Bad Request - Invalid OffSetValue');
      const oldest = now().getTime() - HISTORY_MS;
      const rows = deps
        .payments()
        .filter((payment) => payment.status === 'completed' && payment.resultCode === '0')
        .filter((payment) => payment.createdAt.getTime() >= Math.max(start.getTime(), oldest) && payment.createdAt.getTime() <= end.getTime() + 999)
        // Oldest first, so that a page boundary stays put while new payments arrive.
        .reverse()
        .slice(offset, offset + deps.pageSize)
        .map((payment) => row(payment, `Shortcode ${deps.shortcode}`));
      res.json({ ResponseRefID: randomUUID(), ResponseCode: rows.length ? '1000' : '1001', ResponseMessage: rows.length ? 'Success' : 'No transactions found', Response: [rows] });
    });
  }

  return { mount, registered: () => registered };
}
