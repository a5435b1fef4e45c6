-- Holds seats for a paid order in one round trip (server/src/modules/payments/payments.repository.ts).
-- The event row is locked first; each later statement in this VOLATILE function takes a fresh
-- snapshot, so the count sees every ticket and hold committed before the lock was granted.
-- Seats in use = issued tickets + pending orders whose hold has not run out (clock read after the lock).
CREATE OR REPLACE FUNCTION tukio_hold_seats(
  p_order_id varchar,
  p_event_id varchar,
  p_user_id varchar,
  p_quantity integer,
  p_phone text,
  p_hold_seconds double precision
) RETURNS TABLE (outcome text, amount integer, hold_expires_at timestamptz, seats_left integer)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_capacity integer;
  v_price integer;
  v_taken integer;
  v_now timestamptz;
BEGIN
  SELECT e.capacity, e.ticket_price INTO v_capacity, v_price FROM events e WHERE e.id = p_event_id FOR UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'not_found'::text, NULL::integer, NULL::timestamptz, NULL::integer;
    RETURN;
  END IF;
  v_now := clock_timestamp();
  IF v_capacity IS NOT NULL THEN
    SELECT (SELECT count(*) FROM tickets t WHERE t.event_id = p_event_id)::integer
         + (SELECT coalesce(sum(o.quantity), 0) FROM orders o
             WHERE o.event_id = p_event_id AND o.status = 'pending' AND o.hold_expires_at > v_now)::integer
      INTO v_taken;
    IF v_taken + p_quantity > v_capacity THEN
      RETURN QUERY SELECT 'sold_out'::text, NULL::integer, NULL::timestamptz, greatest(v_capacity - v_taken, 0);
      RETURN;
    END IF;
  END IF;
  INSERT INTO orders (id, event_id, user_id, quantity, amount, status, phone, hold_expires_at, created_at, updated_at)
  VALUES (p_order_id, p_event_id, p_user_id, p_quantity, v_price * p_quantity, 'pending', p_phone,
          v_now + make_interval(secs => p_hold_seconds), v_now, v_now);
  RETURN QUERY SELECT 'held'::text, v_price * p_quantity, v_now + make_interval(secs => p_hold_seconds), NULL::integer;
END;
$$;
