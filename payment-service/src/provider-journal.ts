import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';

/** A completed STK payment as its callback told it. */
export interface JournaledPayment {
  receipt: string;
  amount: number;
  phone: string;
  checkoutRequestId: string;
  at: number;
}

/**
 * A refund or organiser payout request Daraja accepted: how Daraja names it (the OriginatorConversationID of a
 * reversal or a B2B payment is Daraja's own).
 */
export interface JournaledRequest {
  /** Ours: tukio-<refundId>-<n>, or tukio-payout-<payoutId>-<n>. */
  originatorConversationId: string;
  kind: 'b2c' | 'reversal' | 'b2b';
  darajaOriginatorConversationId: string;
  conversationId: string;
  at: number;
}

/** A payout or reversal M-Pesa says it completed (result callback or Transaction Status). */
export interface JournaledPayout {
  transactionId: string;
  /** As the provider names the request (Daraja's own for a reversal), else ours. */
  originatorConversationId: string;
  /** Ours, when known. */
  attempt: string | undefined;
  amount: number;
  kind: 'b2c' | 'reversal' | 'b2b';
  at: number;
}

/** A refund request Daraja refused synchronously (nothing was paid), kept until the API server has recorded it. */
export interface JournaledRejection {
  originatorConversationId: string;
  errorCode: string;
  errorMessage: string;
  at: number;
}

/**
 * An organiser payout request about to go to Daraja (`sending`), and one that never reached it (`unsent`): an
 * attempt sent with no answer journaled may have been paid, and is never sent again.
 */
interface JournaledSending {
  originatorConversationId: string;
  at: number;
}

type Line =
  | { payment: JournaledPayment }
  | { sent: JournaledRequest }
  | { payout: JournaledPayout }
  | { rejected: JournaledRejection }
  | { sending: JournaledSending }
  | { unsent: JournaledSending };

const LOG = 'journal.log';

/** Every line of a journal directory; a line cut short by a kill mid-write is skipped. */
function readLines(dir: string): Line[] {
  let text: string;
  try {
    text = readFileSync(path.join(dir, LOG), 'utf8');
  } catch {
    return [];
  }
  const lines: Line[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      const record = JSON.parse(line) as Line;
      if (record && typeof record === 'object') lines.push(record);
    } catch {
      // cut short
    }
  }
  return lines;
}

/**
 * What M-Pesa told this payment service, in the order it said it: completed STK payments (callbacks with a
 * receipt), refund requests it accepted, and payouts it completed. With real Daraja this is the provider's side
 * of the audit (`npm run audit:payments`); with the simulator, its ledger is. Deduplicated by receipt and
 * TransactionID (a callback may come twice).
 */
export function readProviderJournal(dir: string) {
  const payments = new Map<string, JournaledPayment>();
  const payouts = new Map<string, JournaledPayout>();
  const requests = new Map<string, JournaledRequest>();
  const rejections = new Map<string, JournaledRejection>();
  const sending = new Set<string>();
  for (const line of readLines(dir)) {
    if ('payment' in line && line.payment?.receipt) payments.set(line.payment.receipt, line.payment);
    else if ('payout' in line && line.payout?.transactionId) payouts.set(line.payout.transactionId, line.payout);
    else if ('sent' in line && line.sent?.originatorConversationId) requests.set(line.sent.originatorConversationId, line.sent);
    else if ('rejected' in line && line.rejected?.originatorConversationId) rejections.set(line.rejected.originatorConversationId, line.rejected);
    else if ('sending' in line && line.sending?.originatorConversationId) sending.add(line.sending.originatorConversationId);
    else if ('unsent' in line && line.unsent?.originatorConversationId) sending.delete(line.unsent.originatorConversationId);
  }
  return { payments: [...payments.values()], payouts: [...payouts.values()], requests, rejections, sending };
}

/**
 * The journal under `dir` ($DATA_DIR/mpesa-journal): one JSON line per fact, appended with one synchronous
 * write on a file kept open (it survives a SIGKILL of this process, like the push journal). This process is
 * its only writer. The accepted and refused requests are also kept in memory: the refund reconciler asks Daraja
 * about a reversal by the OriginatorConversationID Daraja gave it, which only this journal knows, and reports
 * again a refusal the API server did not record.
 */
export function createProviderJournal(dir: string) {
  mkdirSync(dir, { recursive: true });
  const { requests, rejections, sending } = readProviderJournal(dir);
  let fd = openSync(path.join(dir, LOG), 'a');

  function append(line: Line) {
    if (fd < 0) return;
    writeSync(fd, `${JSON.stringify(line)}\n`);
  }

  return {
    dir,
    payment(entry: Omit<JournaledPayment, 'at'>) {
      append({ payment: { ...entry, at: Date.now() } });
    },
    sent(entry: Omit<JournaledRequest, 'at'>) {
      const record = { ...entry, at: Date.now() };
      append({ sent: record });
      requests.set(entry.originatorConversationId, record);
    },
    payout(entry: Omit<JournaledPayout, 'at'>) {
      append({ payout: { ...entry, at: Date.now() } });
    },
    rejected(entry: Omit<JournaledRejection, 'at'>) {
      const record = { ...entry, at: Date.now() };
      append({ rejected: record });
      rejections.set(entry.originatorConversationId, record);
    },
    /** Before a payout or refund request goes to Daraja (daraja/send-once.ts). */
    sending(originatorConversationId: string) {
      append({ sending: { originatorConversationId, at: Date.now() } });
      sending.add(originatorConversationId);
    },
    /** The request never reached Daraja: it may be sent again. */
    unsent(originatorConversationId: string) {
      append({ unsent: { originatorConversationId, at: Date.now() } });
      sending.delete(originatorConversationId);
    },
    /** Whether a request was sent for this attempt (whatever Daraja answered, if it answered). */
    wasSent: (originatorConversationId: string) => sending.has(originatorConversationId),
    /** The accepted request of one of our attempts, if this journal saw it. */
    request: (originatorConversationId: string) => requests.get(originatorConversationId),
    /** Daraja's refusal of one of our attempts, if this journal saw it. */
    rejection: (originatorConversationId: string) => rejections.get(originatorConversationId),
    close() {
      if (fd >= 0) closeSync(fd);
      fd = -1;
    },
  };
}

export type ProviderJournal = ReturnType<typeof createProviderJournal>;
