-- Database functions of the ledger module: the source of truth, applied on every start after the migrations
-- (server/src/db/database-functions.ts), so a change here is a change of this file only. Copies in old migrations
-- are history. The triggers that call them are made by the migrations (0029_ledger.sql).

-- Double entry, enforced where every writer passes: at commit (a deferred constraint trigger, so a transaction's
-- entries may be inserted in any order and statement), each ledger transaction has at least two entries and they
-- sum to zero. Fired by the transaction row (TG_ARGV[0] = 'id') and by each entry ('transaction_id').
CREATE OR REPLACE FUNCTION tukio_ledger_balanced() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  tx_id varchar := to_jsonb(NEW) ->> TG_ARGV[0];
  total bigint;
  legs integer;
BEGIN
  SELECT coalesce(sum(e.amount), 0), count(*) INTO total, legs FROM ledger_entries e WHERE e.transaction_id = tx_id;
  IF total <> 0 OR legs < 2 THEN
    RAISE EXCEPTION 'ledger transaction % does not balance: % entries summing to %', tx_id, legs, total USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$$;

-- The ledger is append-only: a mistake is corrected by a reversing or adjusting transaction, never by an edit.
CREATE OR REPLACE FUNCTION tukio_ledger_rows_kept() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger rows are never % (table %): post a correcting transaction instead', lower(TG_OP) || 'd', TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END;
$$;
