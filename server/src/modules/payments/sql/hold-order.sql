-- Database functions of the payments module: the source of truth, applied on every start after the migrations
-- (server/src/db/database-functions.ts), so a change here is a change of this file only. Copies in old migrations
-- are history.

-- The ticket each seat of an order becomes: its type and its share of the payment. A line's amount
-- (unit price x quantity - discount) is spread in whole shillings, the remainder on its first tickets,
-- so an order's tickets add up to exactly what was paid.
CREATE OR REPLACE FUNCTION tukio_order_slots(p_order_id varchar)
RETURNS TABLE (n bigint, ticket_type_id varchar, price_paid integer) LANGUAGE sql STABLE AS $$
  SELECT row_number() OVER (ORDER BY i.position, g.k), i.ticket_type_id,
         ((i.unit_price * i.quantity - i.discount) / i.quantity
           + CASE WHEN g.k <= (i.unit_price * i.quantity - i.discount) % i.quantity THEN 1 ELSE 0 END)::integer
    FROM order_items i CROSS JOIN LATERAL generate_series(1, i.quantity) AS g(k)
   WHERE i.order_id = p_order_id
$$;

-- Holds the seats of one order, or says why not, in one statement under the event's row lock (see the outcomes
-- below); payments.repository.ts calls it. An order above M-Pesa's per-transaction maximum (Ksh 250,000,
-- MPESA_TRANSACTION_MAX in @tukio/shared/limits) is refused before anything is held (outcome 'amount_too_large', its
-- amount in `amount`): held and pushed, Daraja would only refuse it ("Invalid Amount") after its seats had been taken.
CREATE OR REPLACE FUNCTION tukio_hold_order(
  p_order_id varchar,
  p_event_id varchar,
  p_user_id varchar,
  p_items jsonb,
  p_quantity integer,
  p_promo_code text,
  p_phone text,
  p_guest_email text,
  p_hold_seconds double precision,
  p_wall_now timestamptz
) RETURNS TABLE (outcome text, amount integer, discount integer, quantity integer, hold_expires_at timestamptz, seats_left integer, title text, detail text)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_event record;
  v_type record;
  v_item record;
  v_promo record;
  v_promo_id varchar;
  v_now timestamptz;
  v_taken integer;
  v_total integer := 0;
  v_gross integer := 0;
  v_discount integer := 0;
  v_line_discount integer;
  v_eligible integer := 0;
  v_position integer := 0;
  v_lines jsonb := '[]'::jsonb;
  v_line jsonb;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  SELECT e.capacity, e.status, e.starts_at, e.is_paid, e.title INTO v_event FROM events e WHERE e.id = p_event_id FOR UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'not_found'::text, NULL::integer, NULL::integer, NULL::integer, NULL::timestamptz, NULL::integer, NULL::text, NULL::text;
    RETURN;
  END IF;
  IF v_event.status <> 'approved' THEN
    RETURN QUERY SELECT 'not_open'::text, NULL::integer, NULL::integer, NULL::integer, NULL::timestamptz, NULL::integer, v_event.title, NULL::text;
    RETURN;
  END IF;
  IF v_event.starts_at < p_wall_now THEN
    RETURN QUERY SELECT 'past'::text, NULL::integer, NULL::integer, NULL::integer, NULL::timestamptz, NULL::integer, v_event.title, NULL::text;
    RETURN;
  END IF;
  IF NOT v_event.is_paid THEN
    RETURN QUERY SELECT 'free'::text, NULL::integer, NULL::integer, NULL::integer, NULL::timestamptz, NULL::integer, v_event.title, NULL::text;
    RETURN;
  END IF;
  v_now := clock_timestamp();

  IF p_items IS NULL OR jsonb_array_length(p_items) = 0 THEN
    SELECT t.id INTO v_type FROM ticket_types t
     WHERE t.event_id = p_event_id AND (t.sales_start IS NULL OR t.sales_start <= p_wall_now) AND (t.sales_end IS NULL OR t.sales_end > p_wall_now)
     ORDER BY t.price, t.position LIMIT 1;
    IF NOT FOUND THEN
      RETURN QUERY SELECT 'not_on_sale'::text, NULL::integer, NULL::integer, NULL::integer, NULL::timestamptz, NULL::integer, v_event.title, NULL::text;
      RETURN;
    END IF;
    p_items := jsonb_build_array(jsonb_build_object('typeId', v_type.id, 'quantity', p_quantity));
  END IF;

  FOR v_item IN SELECT x."typeId" AS type_id, x.quantity FROM jsonb_to_recordset(p_items) AS x("typeId" varchar, quantity integer) LOOP
    SELECT t.id, t.name, t.price, t.capacity, t.sales_start, t.sales_end, t.max_per_order INTO v_type
      FROM ticket_types t WHERE t.id = v_item.type_id AND t.event_id = p_event_id;
    IF NOT FOUND THEN
      RETURN QUERY SELECT 'type_not_found'::text, NULL::integer, NULL::integer, NULL::integer, NULL::timestamptz, NULL::integer, v_event.title, v_item.type_id::text;
      RETURN;
    END IF;
    IF v_type.sales_start IS NOT NULL AND v_type.sales_start > p_wall_now THEN
      RETURN QUERY SELECT 'type_not_started'::text, NULL::integer, NULL::integer, NULL::integer, v_type.sales_start, NULL::integer, v_event.title, v_type.name;
      RETURN;
    END IF;
    IF v_type.sales_end IS NOT NULL AND v_type.sales_end <= p_wall_now THEN
      RETURN QUERY SELECT 'type_ended'::text, NULL::integer, NULL::integer, NULL::integer, v_type.sales_end, NULL::integer, v_event.title, v_type.name;
      RETURN;
    END IF;
    IF v_item.quantity > v_type.max_per_order THEN
      RETURN QUERY SELECT 'type_max'::text, NULL::integer, NULL::integer, v_type.max_per_order, NULL::timestamptz, NULL::integer, v_event.title, v_type.name;
      RETURN;
    END IF;
    IF v_type.capacity IS NOT NULL THEN
      v_taken := tukio_type_seats_taken(v_type.id, v_now, NULL);
      IF v_taken + v_item.quantity > v_type.capacity THEN
        RETURN QUERY SELECT 'type_sold_out'::text, NULL::integer, NULL::integer, NULL::integer, NULL::timestamptz, greatest(v_type.capacity - v_taken, 0), v_event.title, v_type.name;
        RETURN;
      END IF;
    END IF;
    v_total := v_total + v_item.quantity;
    v_gross := v_gross + v_type.price * v_item.quantity;
    v_lines := v_lines || jsonb_build_object('typeId', v_type.id, 'quantity', v_item.quantity, 'price', v_type.price, 'discount', 0);
  END LOOP;

  IF v_gross < 1 THEN
    -- Nothing to pay (only free types chosen): free seats are registered, not bought.
    RETURN QUERY SELECT 'free'::text, NULL::integer, NULL::integer, NULL::integer, NULL::timestamptz, NULL::integer, v_event.title, NULL::text;
    RETURN;
  END IF;

  IF v_event.capacity IS NOT NULL THEN
    SELECT (SELECT count(*) FROM tickets t WHERE t.event_id = p_event_id AND t.voided_at IS NULL)::integer
         + (SELECT coalesce(sum(o.quantity), 0) FROM orders o
             WHERE o.event_id = p_event_id AND o.status = 'pending' AND o.hold_expires_at > v_now)::integer
         + tukio_offered_seats(p_event_id, p_user_id, v_now)
      INTO v_taken;
    IF v_taken + v_total > v_event.capacity THEN
      RETURN QUERY SELECT 'sold_out'::text, NULL::integer, NULL::integer, NULL::integer, NULL::timestamptz, greatest(v_event.capacity - v_taken, 0), v_event.title, NULL::text;
      RETURN;
    END IF;
  END IF;

  IF p_promo_code IS NOT NULL THEN
    SELECT c.id, c.kind, c.value, c.max_uses, c.valid_from, c.valid_until, c.ticket_type_ids INTO v_promo
      FROM promo_codes c WHERE c.event_id = p_event_id AND c.code = upper(p_promo_code);
    IF NOT FOUND THEN
      RETURN QUERY SELECT 'promo_unknown'::text, NULL::integer, NULL::integer, NULL::integer, NULL::timestamptz, NULL::integer, v_event.title, upper(p_promo_code);
      RETURN;
    END IF;
    v_promo_id := v_promo.id;
    IF (v_promo.valid_from IS NOT NULL AND v_promo.valid_from > p_wall_now) OR (v_promo.valid_until IS NOT NULL AND v_promo.valid_until <= p_wall_now) THEN
      RETURN QUERY SELECT 'promo_not_valid_now'::text, NULL::integer, NULL::integer, NULL::integer, NULL::timestamptz, NULL::integer, v_event.title, upper(p_promo_code);
      RETURN;
    END IF;
    IF v_promo.max_uses IS NOT NULL AND tukio_promo_uses(v_promo.id, v_now) >= v_promo.max_uses THEN
      RETURN QUERY SELECT 'promo_used_up'::text, NULL::integer, NULL::integer, NULL::integer, NULL::timestamptz, NULL::integer, v_event.title, upper(p_promo_code);
      RETURN;
    END IF;
    -- Each line it applies to gets its discount; the order still costs at least Ksh.1 (M-Pesa takes no zero).
    FOR i IN 0 .. jsonb_array_length(v_lines) - 1 LOOP
      v_line := v_lines -> i;
      IF v_promo.ticket_type_ids IS NULL OR (v_line ->> 'typeId') = ANY (v_promo.ticket_type_ids) THEN
        v_eligible := v_eligible + 1;
        IF v_promo.kind = 'percent' THEN
          v_line_discount := ((v_line ->> 'price')::integer * (v_line ->> 'quantity')::integer * v_promo.value) / 100;
        ELSE
          v_line_discount := least(v_promo.value, (v_line ->> 'price')::integer) * (v_line ->> 'quantity')::integer;
        END IF;
        v_line_discount := least(v_line_discount, v_gross - 1 - v_discount);
        v_discount := v_discount + greatest(v_line_discount, 0);
        v_lines := jsonb_set(v_lines, ARRAY[i::text, 'discount'], to_jsonb(greatest(v_line_discount, 0)));
      END IF;
    END LOOP;
    IF v_eligible = 0 THEN
      RETURN QUERY SELECT 'promo_not_for_types'::text, NULL::integer, NULL::integer, NULL::integer, NULL::timestamptz, NULL::integer, v_event.title, upper(p_promo_code);
      RETURN;
    END IF;
  END IF;

  IF v_gross - v_discount > 250000 THEN
    RETURN QUERY SELECT 'amount_too_large'::text, v_gross - v_discount, v_discount, v_total, NULL::timestamptz, NULL::integer, v_event.title, NULL::text;
    RETURN;
  END IF;

  INSERT INTO orders (id, event_id, user_id, quantity, amount, status, phone, hold_expires_at, promo_code_id, discount, guest_email, created_at, updated_at)
  VALUES (p_order_id, p_event_id, p_user_id, v_total, v_gross - v_discount, 'pending', p_phone, v_now + make_interval(secs => p_hold_seconds),
          v_promo_id, v_discount, p_guest_email, v_now, v_now);
  FOR i IN 0 .. jsonb_array_length(v_lines) - 1 LOOP
    v_line := v_lines -> i;
    INSERT INTO order_items (id, order_id, ticket_type_id, position, quantity, unit_price, discount)
    VALUES (substr(md5(p_order_id || ':item-' || i), 1, 24), p_order_id, v_line ->> 'typeId', i, (v_line ->> 'quantity')::integer,
            (v_line ->> 'price')::integer, (v_line ->> 'discount')::integer);
  END LOOP;
  RETURN QUERY SELECT 'held'::text, v_gross - v_discount, v_discount, v_total, v_now + make_interval(secs => p_hold_seconds), NULL::integer, v_event.title, NULL::text;
END;
$$;
