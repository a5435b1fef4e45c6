-- Database functions of the waitlist module: the source of truth, applied on every start after the migrations
-- (server/src/db/database-functions.ts), so a change here is a change of this file only. Copies in old migrations
-- are history.

-- Seats promised to the waitlist: each live offer of someone other than p_except_user, less what its
-- holder already holds in a live pending order for the event (paying for the offer must not count it twice).
-- The one definition of the rule: the hold (checkout/sql/hold-order.sql) and the API server's seat counts both call it.
CREATE OR REPLACE FUNCTION tukio_offered_seats(p_event_id varchar, p_except_user varchar, p_now timestamptz)
RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT coalesce(sum(greatest(w.offered_quantity - coalesce((
           SELECT sum(o.quantity) FROM orders o
            WHERE o.event_id = w.event_id AND o.user_id = w.user_id AND o.status = 'pending' AND o.hold_expires_at > p_now), 0), 0)), 0)::integer
    FROM waitlist_entries w
   WHERE w.event_id = p_event_id AND w.status = 'offered' AND w.offer_expires_at > p_now
     AND w.user_id IS DISTINCT FROM p_except_user
$$;

-- Whoever gets a valid ticket for an event (bought, registered, offered, transferred to them) has what
-- their place on its waitlist was for: the place ends 'accepted', and an offer's seats stop being promised.
-- One statement-level rule for every path that issues tickets, the one-statement settlement included.
CREATE OR REPLACE FUNCTION tukio_waitlist_served() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE waitlist_entries w SET status = 'accepted', updated_at = now()
    FROM (SELECT DISTINCT i.event_id, i.user_id FROM issued i WHERE i.voided_at IS NULL) got
   WHERE w.event_id = got.event_id AND w.user_id = got.user_id AND w.status IN ('waiting', 'offered');
  RETURN NULL;
END;
$$;
