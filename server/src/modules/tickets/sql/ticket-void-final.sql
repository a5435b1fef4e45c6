-- Database functions of the tickets module: the source of truth, applied on every start after the migrations
-- (server/src/db/database-functions.ts), so a change here is a change of this file only. Copies in old migrations
-- are history.

-- A void ticket stays void, with the reason it was voided for: a refund or a replacement ticket was made
-- because of it, so bringing it back would sell its seat twice.
CREATE OR REPLACE FUNCTION tukio_ticket_void_final() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'a void ticket stays void (ticket %)', OLD.id;
END;
$$;
