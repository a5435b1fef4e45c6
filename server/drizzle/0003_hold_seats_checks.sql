-- tukio_hold_seats (0002) plus the checks a checkout made with a separate read before it: the event
-- must be approved, not yet started (p_not_before is "now" on the events' wall clock, computed by
-- the API server) and paid. They are made under the event row lock, so the answer cannot go stale
-- between the check and the hold, and a checkout costs one round trip instead of two. The event
-- title comes back for the payment service. 0002's function stays for servers of the previous version.
CREATE OR REPLACE FUNCTION tukio_hold_seats_checked(
  p_order_id varchar,
  p_event_id varchar,
  p_user_id varchar,
  p_quantity integer,
  p_phone text,
  p_hold_seconds double precision,
  p_not_before timestamptz
) RETURNS TABLE (outcome text, amount integer, hold_expires_at timestamptz, seats_left integer, title text)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_capacity integer;
  v_price integer;
  v_status text;
  v_starts_at timestamptz;
  v_is_paid boolean;
  v_title text;
  v_taken integer;
  v_now timestamptz;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  SELECT e.capacity, e.ticket_price, e.status, e.starts_at, e.is_paid, e.title
    INTO v_capacity, v_price, v_status, v_starts_at, v_is_paid, v_title
    FROM events e WHERE e.id = p_event_id FOR UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'not_found'::text, NULL::integer, NULL::timestamptz, NULL::integer, NULL::text;
    RETURN;
  END IF;
  IF v_status <> 'approved' THEN
    RETURN QUERY SELECT 'not_open'::text, NULL::integer, NULL::timestamptz, NULL::integer, v_title;
    RETURN;
  END IF;
  IF v_starts_at < p_not_before THEN
    RETURN QUERY SELECT 'past'::text, NULL::integer, NULL::timestamptz, NULL::integer, v_title;
    RETURN;
  END IF;
  IF NOT v_is_paid OR v_price <= 0 THEN
    RETURN QUERY SELECT 'free'::text, NULL::integer, NULL::timestamptz, NULL::integer, v_title;
    RETURN;
  END IF;
  v_now := clock_timestamp();
  IF v_capacity IS NOT NULL THEN
    SELECT (SELECT count(*) FROM tickets t WHERE t.event_id = p_event_id)::integer
         + (SELECT coalesce(sum(o.quantity), 0) FROM orders o
             WHERE o.event_id = p_event_id AND o.status = 'pending' AND o.hold_expires_at > v_now)::integer
      INTO v_taken;
    IF v_taken + p_quantity > v_capacity THEN
      RETURN QUERY SELECT 'sold_out'::text, NULL::integer, NULL::timestamptz, greatest(v_capacity - v_taken, 0), v_title;
      RETURN;
    END IF;
  END IF;
  INSERT INTO orders (id, event_id, user_id, quantity, amount, status, phone, hold_expires_at, created_at, updated_at)
  VALUES (p_order_id, p_event_id, p_user_id, p_quantity, v_price * p_quantity, 'pending', p_phone,
          v_now + make_interval(secs => p_hold_seconds), v_now, v_now);
  RETURN QUERY SELECT 'held'::text, v_price * p_quantity, v_now + make_interval(secs => p_hold_seconds), NULL::integer, v_title;
END;
$$;
