import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { events } from '../events/index.js';
import { LEDGER_ACCOUNTS, ledgerEntries, ledgerTransactions } from './ledger.schema.js';

export type LedgerAccount = (typeof LEDGER_ACCOUNTS)[number];
export type LedgerTransactionKind = (typeof ledgerTransactions.kind.enumValues)[number];

/** One entry: whole shillings, debit positive, credit negative. */
export interface LedgerLeg {
  account: LedgerAccount;
  amount: number;
  eventId?: string | null | undefined;
}

export interface LedgerPosting {
  kind: LedgerTransactionKind;
  paymentId?: string | undefined;
  refundId?: string | undefined;
  payoutId?: string | undefined;
  memo?: string | undefined;
  createdBy?: string | undefined;
  legs: LedgerLeg[];
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

export function createLedgerRepository(db: Executor) {
  return {
    /**
     * Writes transactions and their entries in one statement, whatever their number (an event's cancellation
     * posts every refund at once). The unique (kind, reference) indexes make a repeated post of a payment or
     * refund a no-op: its entries are skipped with it, and only the ids of transactions written now come back.
     * The organiser of an organiser-payable entry is read from its event as it is written. The database checks
     * each transaction's balance at commit.
     */
    async post(postings: LedgerPosting[]): Promise<string[]> {
      if (postings.length === 0) return [];
      const written = postings.map((posting) => ({ id: newId(), posting }));
      const transactions = sql.join(
        written.map(
          ({ id, posting }) =>
            sql`(${id}::varchar, ${posting.kind}::text, ${posting.paymentId ?? null}::varchar, ${posting.refundId ?? null}::varchar, ${posting.payoutId ?? null}::varchar, ${posting.memo ?? null}::text, ${posting.createdBy ?? null}::varchar)`,
        ),
        sql`, `,
      );
      const legs = sql.join(
        written.flatMap(({ id, posting }) => posting.legs.map((leg) => sql`(${newId()}::varchar, ${id}::varchar, ${leg.account}::text, ${leg.eventId ?? null}::varchar, ${leg.amount}::integer)`)),
        sql`, `,
      );
      const result = await db.execute(sql`
        with posted as (
          insert into ${ledgerTransactions} (id, kind, payment_id, refund_id, payout_id, memo, created_by)
          select * from (values ${transactions}) as tx (id, kind, payment_id, refund_id, payout_id, memo, created_by)
          on conflict do nothing
          returning id
        ), entries as (
          insert into ${ledgerEntries} (id, transaction_id, account, event_id, organiser_id, amount)
          select leg.id, leg.transaction_id, leg.account, leg.event_id,
                 case when leg.account = 'organiser_payable' then (select e.user_id from ${events} e where e.id = leg.event_id) end,
                 leg.amount
            from (values ${legs}) as leg (id, transaction_id, account, event_id, amount)
            join posted on posted.id = leg.transaction_id
        )
        select id from posted`);
      return rowsOf<{ id: string }>(result).map((row) => row.id);
    },

    /**
     * A `contradiction` transaction of the payment: its `payment` transaction's every entry with the opposite sign
     * (the organiser of a payable leg read from the event now, as `post` does). Nothing when the payment posted
     * nothing or its contradiction is there already.
     */
    async reversePayment(paymentId: string): Promise<void> {
      await db.execute(sql`
        with original as (
          select t.id from ${ledgerTransactions} t where t.kind = 'payment' and t.payment_id = ${paymentId}
        ), posted as (
          insert into ${ledgerTransactions} (id, kind, payment_id)
          select ${newId()}, 'contradiction', ${paymentId} where exists (select 1 from original)
          on conflict do nothing
          returning id
        )
        insert into ${ledgerEntries} (id, transaction_id, account, event_id, organiser_id, amount)
        select substr(md5(posted.id || ':' || e.id), 1, 24), posted.id, e.account, e.event_id,
               case when e.account = 'organiser_payable' then (select ev.user_id from ${events} ev where ev.id = e.event_id) end,
               -e.amount
          from posted cross join original join ${ledgerEntries} e on e.transaction_id = original.id`);
    },

    /** Each account's balance (debit positive), over everything or one event's entries. */
    async balances(eventId?: string): Promise<Array<{ account: LedgerAccount; balance: number }>> {
      const rows = await db
        .select({ account: ledgerEntries.account, balance: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)` })
        .from(ledgerEntries)
        .where(eventId ? eq(ledgerEntries.eventId, eventId) : undefined)
        .groupBy(ledgerEntries.account);
      return rows.map((row) => ({ account: row.account, balance: Number(row.balance) }));
    },

    /** An event's organiser-payable entries summed by the kind of transaction that made them. */
    async payableByKind(eventId: string): Promise<Array<{ kind: LedgerTransactionKind; amount: number }>> {
      const rows = await db
        .select({ kind: ledgerTransactions.kind, amount: sql<string>`sum(${ledgerEntries.amount})` })
        .from(ledgerEntries)
        .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
        .where(and(eq(ledgerEntries.account, 'organiser_payable'), eq(ledgerEntries.eventId, eventId)))
        .groupBy(ledgerTransactions.kind);
      return rows.map((row) => ({ kind: row.kind, amount: Number(row.amount) }));
    },

    /** Every account's balance over the entries of transactions of these kinds (debit positive). */
    async balancesOfKinds(kinds: LedgerTransactionKind[]): Promise<Array<{ account: LedgerAccount; balance: number }>> {
      const rows = await db
        .select({ account: ledgerEntries.account, balance: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)` })
        .from(ledgerEntries)
        .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
        .where(inArray(ledgerTransactions.kind, kinds))
        .groupBy(ledgerEntries.account);
      return rows.map((row) => ({ account: row.account, balance: Number(row.balance) }));
    },

    /** Transactions whose entries do not sum to zero or that have fewer than two (the triggers forbid them: this is the audit's proof). */
    async unbalanced(limit: number): Promise<Array<{ id: string; kind: string; legs: number; total: number }>> {
      const result = await db.execute(sql`
        select t.id, t.kind, count(e.id)::int as legs, coalesce(sum(e.amount), 0)::bigint as total
          from ${ledgerTransactions} t left join ${ledgerEntries} e on e.transaction_id = t.id
         group by t.id, t.kind
        having coalesce(sum(e.amount), 0) <> 0 or count(e.id) < 2
         limit ${limit}`);
      return rowsOf<{ id: string; kind: string; legs: number; total: string }>(result).map((row) => ({ ...row, legs: Number(row.legs), total: Number(row.total) }));
    },
  };
}
