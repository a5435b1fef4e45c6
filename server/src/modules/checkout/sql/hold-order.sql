-- Database functions of the checkout module: the source of truth, applied on every start after the migrations
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

-- The series date a seat of an order line is for (docs/decisions/event-series.md): its type's own date, none for an
-- all-dates pass (null: it takes a seat on every date), else the date the order picked (null on an event without dates).
CREATE OR REPLACE FUNCTION tukio_seat_date(p_type_id varchar, p_order_date varchar)
RETURNS varchar LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN t.date_id IS NOT NULL THEN t.date_id WHEN t.all_dates THEN NULL ELSE p_order_date END
    FROM ticket_types t WHERE t.id = p_type_id
$$;

-- What each seat of an order becomes with the date it admits on: tukio_order_slots plus the seat's date. The
-- tickets module reads it when it issues an order's tickets.
CREATE OR REPLACE FUNCTION tukio_order_dated_slots(p_order_id varchar)
RETURNS TABLE (n bigint, ticket_type_id varchar, price_paid integer, date_id varchar) LANGUAGE sql STABLE AS $$
  SELECT s.n, s.ticket_type_id, s.price_paid, tukio_seat_date(s.ticket_type_id, o.date_id)
    FROM tukio_order_slots(p_order_id) s CROSS JOIN orders o WHERE o.id = p_order_id
$$;

-- Seats taken on one date of a series: valid tickets for it or for every date (passes), plus live holds and reservations (docs/decisions/instalments.md) of such
-- seats (except one order, the one being settled). The per-date stock rule below and the dates' seat counts share it.
CREATE OR REPLACE FUNCTION tukio_date_seats_taken(p_date_id varchar, p_now timestamptz, p_except_order varchar)
RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT ((SELECT count(*) FROM event_dates d JOIN tickets k ON k.event_id = d.event_id
            WHERE d.id = p_date_id AND k.voided_at IS NULL AND (k.date_id IS NULL OR k.date_id = d.id))
        + (SELECT coalesce(sum(i.quantity), 0) FROM event_dates d JOIN orders o ON o.event_id = d.event_id JOIN order_items i ON i.order_id = o.id
            WHERE d.id = p_date_id AND (o.status = 'reserved' OR (o.status = 'pending' AND o.hold_expires_at > p_now)) AND o.id IS DISTINCT FROM p_except_order
              AND coalesce(tukio_seat_date(i.ticket_type_id, o.date_id), d.id) = d.id))::integer
$$;

-- Seats held for an event by live pending orders (their hold has not run out) and by reservations (a deposit paid on
-- an instalment plan: held until paid or lapsed, docs/decisions/instalments.md), except one order (the one being
-- settled). The one definition: the stock refusal below and the tickets module's seat counts both call it, so
-- tickets counts holds without reading checkout's orders itself (docs/decisions/server-boundaries.md, "Tables").
CREATE OR REPLACE FUNCTION tukio_seats_held(p_event_id varchar, p_now timestamptz, p_except_order varchar)
RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT coalesce(sum(o.quantity), 0)::integer FROM orders o
   WHERE o.event_id = p_event_id AND (o.status = 'reserved' OR (o.status = 'pending' AND o.hold_expires_at > p_now))
     AND o.id IS DISTINCT FROM p_except_order
$$;

-- What a ticket shows of the order it was issued on: what the order paid, for how many seats, who bought it and
-- the email a guest buyer gave. The tickets module reads it for My Tickets and the attendee list (it sits below
-- checkout, so it reads no orders table); no row when there is no such order (a free registration).
CREATE OR REPLACE FUNCTION tukio_ticket_order(p_order_id varchar)
RETURNS TABLE (amount integer, quantity integer, user_id varchar, guest_email text) LANGUAGE sql STABLE AS $$
  SELECT o.amount, o.quantity, o.user_id, o.guest_email FROM orders o WHERE o.id = p_order_id
$$;

-- What pricing an order reads, in one value: the event, whether its sales are paused (changes waiting for review,
-- docs/decisions/events.md), its ticket types in their listed order, the promo code
-- typed (null when none matches) and the platform fee (docs/decisions/fees.md: the event's override when it has one,
-- else the newest platform setting, null before any; with the event's fee mode). price-order.ts prices from it; the
-- hold compares its md5 under the event's lock, so an order priced from facts that changed meanwhile (a new price,
-- a new fee, a cancelled event) is priced again, never held.
CREATE OR REPLACE FUNCTION tukio_pricing_facts(p_event_id varchar, p_promo_code text)
RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
           'event', jsonb_build_object('status', e.status, 'startsAt', e.starts_at, 'isPaid', e.is_paid, 'title', e.title),
           'salesPaused', EXISTS (SELECT 1 FROM event_pending_changes p WHERE p.event_id = e.id AND p.status = 'pending' AND p.pauses_sales),
           'fee', (SELECT jsonb_build_object('percentBp', f.percent_bp, 'fixed', f.fixed, 'minimum', f.minimum, 'mode', e.fee_mode)
                     FROM (SELECT o.percent_bp, o.fixed, o.minimum, 0 AS rank
                             FROM (SELECT * FROM event_fee_overrides x WHERE x.event_id = e.id ORDER BY x.created_at DESC, x.id DESC LIMIT 1) o
                            WHERE o.percent_bp IS NOT NULL
                           UNION ALL
                           (SELECT s.percent_bp, s.fixed, s.minimum, 1 FROM platform_fee_settings s ORDER BY s.created_at DESC, s.id DESC LIMIT 1)) f
                    ORDER BY f.rank LIMIT 1),
           'types', coalesce((SELECT jsonb_agg(jsonb_build_object('id', t.id, 'name', t.name, 'price', t.price, 'salesStart', t.sales_start,
                                                                'salesEnd', t.sales_end, 'maxPerOrder', t.max_per_order, 'dateId', t.date_id,
                                                                'allDates', t.all_dates, 'instalments', t.instalments) ORDER BY t.position, t.id)
                                FROM ticket_types t WHERE t.event_id = e.id), '[]'::jsonb),
           'dates', coalesce((SELECT jsonb_agg(jsonb_build_object('id', d.id, 'startsAt', d.starts_at) ORDER BY d.starts_at, d.id)
                                FROM event_dates d WHERE d.event_id = e.id AND d.status = 'active'), '[]'::jsonb),
           'promo', (SELECT jsonb_build_object('id', c.id, 'code', c.code, 'kind', c.kind, 'value', c.value, 'validFrom', c.valid_from,
                                               'validUntil', c.valid_until, 'ticketTypeIds', c.ticket_type_ids)
                       FROM promo_codes c WHERE c.event_id = e.id AND c.code = upper(p_promo_code)))
    FROM events e WHERE e.id = p_event_id
$$;

-- Why an order's seats would not fit now, or no row when they do: the date it is for still on sale, each chosen
-- type's capacity, then the event's (issued tickets + live holds + seats offered to other people on the waitlist)
-- or, on a series, each date's (docs/decisions/event-series.md: a date's own seats replace the event's, and a pass
-- takes a seat on every date), then the promo code's uses.
-- `p_lines` is [{typeId, quantity, dateId}] (dateId: the order's date, null without one); `p_except_order` leaves one order's own hold out of the count (the late
-- settlement of that order). The one stock rule: the hold, the quote and the late settlement all ask it.
CREATE OR REPLACE FUNCTION tukio_stock_refusal(p_event_id varchar, p_user_id varchar, p_lines jsonb, p_promo_id varchar, p_now timestamptz, p_except_order varchar)
RETURNS TABLE (outcome text, seats_left integer, detail text) LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_line record;
  v_taken integer;
  v_total integer := 0;
  v_capacity integer;
  v_max_uses integer;
  v_date record;
  v_need integer;
BEGIN
  IF EXISTS (SELECT 1 FROM jsonb_array_elements(p_lines) AS l(value)
              WHERE l.value ->> 'dateId' IS NOT NULL
                AND NOT EXISTS (SELECT 1 FROM event_dates d WHERE d.id = l.value ->> 'dateId' AND d.event_id = p_event_id AND d.status = 'active')) THEN
    RETURN QUERY SELECT 'date_unavailable'::text, 0, NULL::text;
    RETURN;
  END IF;
  FOR v_line IN SELECT t.id, t.capacity, (l.value ->> 'quantity')::integer AS quantity
                  FROM jsonb_array_elements(p_lines) WITH ORDINALITY AS l(value, n) JOIN ticket_types t ON t.id = l.value ->> 'typeId'
                 ORDER BY l.n LOOP
    v_total := v_total + v_line.quantity;
    IF v_line.capacity IS NOT NULL THEN
      v_taken := tukio_type_seats_taken(v_line.id, p_now, p_except_order);
      IF v_taken + v_line.quantity > v_line.capacity THEN
        RETURN QUERY SELECT 'type_sold_out'::text, greatest(v_line.capacity - v_taken, 0), v_line.id::text;
        RETURN;
      END IF;
    END IF;
  END LOOP;
  FOR v_date IN SELECT d.id, d.capacity FROM event_dates d
                 WHERE d.event_id = p_event_id AND d.status = 'active' AND d.capacity IS NOT NULL ORDER BY d.starts_at, d.id LOOP
    SELECT coalesce(sum((l.value ->> 'quantity')::integer), 0) INTO v_need FROM jsonb_array_elements(p_lines) AS l(value)
     WHERE coalesce(tukio_seat_date(l.value ->> 'typeId', l.value ->> 'dateId'), v_date.id) = v_date.id;
    IF v_need > 0 THEN
      v_taken := tukio_date_seats_taken(v_date.id, p_now, p_except_order);
      IF v_taken + v_need > v_date.capacity THEN
        RETURN QUERY SELECT 'date_sold_out'::text, greatest(v_date.capacity - v_taken, 0), v_date.id::text;
        RETURN;
      END IF;
    END IF;
  END LOOP;
  -- A series' seats are its dates'; the event's own capacity is a single-date event's.
  SELECT e.capacity INTO v_capacity FROM events e
   WHERE e.id = p_event_id AND NOT EXISTS (SELECT 1 FROM event_dates d WHERE d.event_id = e.id AND d.status = 'active');
  IF v_capacity IS NOT NULL THEN
    SELECT (SELECT count(*) FROM tickets t WHERE t.event_id = p_event_id AND t.voided_at IS NULL)::integer
         + tukio_seats_held(p_event_id, p_now, p_except_order)
         + tukio_offered_seats(p_event_id, p_user_id, p_now)
      INTO v_taken;
    IF v_taken + v_total > v_capacity THEN
      RETURN QUERY SELECT 'sold_out'::text, greatest(v_capacity - v_taken, 0), NULL::text;
      RETURN;
    END IF;
  END IF;
  IF p_promo_id IS NOT NULL THEN
    SELECT c.max_uses INTO v_max_uses FROM promo_codes c WHERE c.id = p_promo_id;
    IF v_max_uses IS NOT NULL AND tukio_promo_uses(p_promo_id, p_now) >= v_max_uses THEN
      RETURN QUERY SELECT 'promo_used_up'::text, NULL::integer, NULL::text;
      RETURN;
    END IF;
  END IF;
END;
$$;

-- Holds the seats of an order priced by price-order.ts, or says why not, in one statement under the event's row
-- lock: 'stale' when the pricing facts changed since they were read (`p_facts_version`, their md5), a stock refusal
-- (above), or 'held' after inserting the order (with `p_order_code`, its account number for the Paybill) and its lines. `p_order` is the priced order:
-- {lines: [{typeId, quantity, unitPrice, discount}], quantity, amount, discount, fee, feeMode, promoId}. The lock wait and the
-- count happen inside PostgreSQL, so a burst of buyers for one event queues there, not on the event loop.
-- A database made before the order code was a parameter keeps the nine-parameter version too (an overload): instances
-- not yet restarted in a rolling deploy still call it; nothing else does.
CREATE OR REPLACE FUNCTION tukio_hold_priced_order(
  p_order_id varchar,
  p_order_code text,
  p_event_id varchar,
  p_user_id varchar,
  p_facts_version text,
  p_promo_code text,
  p_order jsonb,
  p_phone text,
  p_guest_email text,
  p_hold_seconds double precision
) RETURNS TABLE (outcome text, hold_expires_at timestamptz, seats_left integer, detail text)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_now timestamptz;
  v_refusal record;
BEGIN
  -- A hold is not money: losing the last few milliseconds of holds in a crash only frees their seats.
  PERFORM set_config('synchronous_commit', 'off', true);
  PERFORM 1 FROM events e WHERE e.id = p_event_id FOR UPDATE;
  IF md5(coalesce(tukio_pricing_facts(p_event_id, p_promo_code)::text, '')) IS DISTINCT FROM p_facts_version THEN
    RETURN QUERY SELECT 'stale'::text, NULL::timestamptz, NULL::integer, NULL::text;
    RETURN;
  END IF;
  v_now := clock_timestamp();
  SELECT * INTO v_refusal FROM tukio_stock_refusal(p_event_id, p_user_id, p_order -> 'lines', p_order ->> 'promoId', v_now, NULL);
  IF FOUND THEN
    RETURN QUERY SELECT v_refusal.outcome, NULL::timestamptz, v_refusal.seats_left, v_refusal.detail;
    RETURN;
  END IF;
  INSERT INTO orders (id, order_code, event_id, user_id, quantity, amount, status, phone, hold_expires_at, promo_code_id, discount, fee_amount, fee_mode, guest_email, date_id, created_at, updated_at)
  VALUES (p_order_id, p_order_code, p_event_id, p_user_id, (p_order ->> 'quantity')::integer, (p_order ->> 'amount')::integer, 'pending', p_phone,
          v_now + make_interval(secs => p_hold_seconds), p_order ->> 'promoId', (p_order ->> 'discount')::integer,
          coalesce((p_order ->> 'fee')::integer, 0), coalesce(p_order ->> 'feeMode', 'absorbed'), p_guest_email, p_order ->> 'dateId', v_now, v_now);
  INSERT INTO order_items (id, order_id, ticket_type_id, position, quantity, unit_price, discount)
  SELECT substr(md5(p_order_id || ':item-' || (l.n - 1)), 1, 24), p_order_id, l.value ->> 'typeId', l.n - 1, (l.value ->> 'quantity')::integer,
         (l.value ->> 'unitPrice')::integer, (l.value ->> 'discount')::integer
    FROM jsonb_array_elements(p_order -> 'lines') WITH ORDINALITY AS l(value, n);
  RETURN QUERY SELECT 'held'::text, v_now + make_interval(secs => p_hold_seconds), NULL::integer, NULL::text;
END;
$$;
