-- Database functions of the payouts module: the source of truth, applied on every start after the migrations
-- (server/src/db/database-functions.ts). The triggers that call them are made by the migrations (0033_payouts.sql).

-- Payouts and their attempts are money rows: never deleted (their status moves on; the ledger keeps the money).
CREATE OR REPLACE FUNCTION tukio_payout_rows_kept() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'payout rows are never % (table %)', lower(TG_OP) || 'd', TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END;
$$;
