-- Database functions of the payout-accounts module: the source of truth, applied on every start after the
-- migrations (server/src/db/database-functions.ts). Copies in old migrations are history.

-- A confirmed payout destination is history: where money was sent stays as it was. A change is a new row.
-- One narrow exception: erasing its organiser's account (docs/decisions/data-rights.md, "Deleting an account").
-- The erasure sets `tukio.erasing_user` to that user's id for its transaction and may then replace only the
-- personal columns (phone, code_phone, account_reference, code_hash); method, shortcode, status and times stay.
CREATE OR REPLACE FUNCTION tukio_payout_account_kept() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status = 'confirmed' THEN
    IF current_setting('tukio.erasing_user', true) = OLD.user_id
       AND (to_jsonb(NEW) - ARRAY['phone', 'code_phone', 'account_reference', 'code_hash']) = (to_jsonb(OLD) - ARRAY['phone', 'code_phone', 'account_reference', 'code_hash']) THEN
      RETURN NEW;
    END IF;
    RAISE EXCEPTION 'a confirmed payout destination is never changed (%): add a new one instead', OLD.id USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END;
$$;
