-- Database functions of the refunds module: the source of truth, applied on every start after the migrations
-- (server/src/db/database-functions.ts), so a change here is a change of this file only. Copies in old migrations
-- are history.

-- The ledger is append-only: refunds and their attempts are never deleted, and a transition once written
-- never changes (the foreign keys already refuse deleting what they point at).
CREATE OR REPLACE FUNCTION tukio_refund_rows_kept() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'refund ledger rows are never % (table %)', lower(TG_OP) || 'd', TG_TABLE_NAME;
END;
$$;
