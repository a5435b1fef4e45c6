-- Database functions of the payout-accounts module: the source of truth, applied on every start after the
-- migrations (server/src/db/database-functions.ts). Copies in old migrations are history.

-- A confirmed payout destination is history: where money was sent stays as it was. A change is a new row.
CREATE OR REPLACE FUNCTION tukio_payout_account_kept() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status = 'confirmed' THEN
    RAISE EXCEPTION 'a confirmed payout destination is never changed (%): add a new one instead', OLD.id USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END;
$$;
