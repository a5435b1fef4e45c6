-- Database functions of the ticket-types module: the source of truth, applied on every start after the migrations
-- (server/src/db/database-functions.ts), so a change here is a change of this file only. Copies in old migrations
-- are history.

-- events.ticket_price / ticket_price_max follow the event's ticket types (cheapest / dearest), so every
-- event answer keeps `ticketPrice` (the cheapest type) and lists say "from" without a join.
CREATE OR REPLACE FUNCTION tukio_event_prices() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_event varchar;
BEGIN
  v_event := CASE WHEN TG_OP = 'DELETE' THEN OLD.event_id ELSE NEW.event_id END;
  UPDATE events e SET ticket_price = p.low, ticket_price_max = p.high
    FROM (SELECT min(price) AS low, max(price) AS high FROM ticket_types WHERE event_id = v_event) p
   WHERE e.id = v_event AND p.low IS NOT NULL AND (e.ticket_price <> p.low OR e.ticket_price_max <> p.high);
  RETURN NULL;
END;
$$;

-- Every event has a ticket type from the start, whatever made it (the API, the importer, the demo seed):
-- one at its ticket_price, which the organiser may rename, change or add to.
CREATE OR REPLACE FUNCTION tukio_event_default_type() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ticket_types (id, event_id, name, price, position)
  VALUES (substr(md5(NEW.id || ':default-type'), 1, 24), NEW.id, 'General admission', NEW.ticket_price, 0);
  RETURN NULL;
END;
$$;

-- An event edited the old way (its ticketPrice, by a client that knows nothing of types) while it has one
-- type: that type takes the price. (With several types the API refuses such an edit.)
CREATE OR REPLACE FUNCTION tukio_event_single_type_price() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ticket_types t SET price = NEW.ticket_price, updated_at = now()
   WHERE t.event_id = NEW.id AND t.price <> NEW.ticket_price
     AND (SELECT count(*) FROM ticket_types x WHERE x.event_id = NEW.id) = 1;
  RETURN NULL;
END;
$$;

-- Seats a ticket type has given out: valid tickets of it plus live holds of it (except one order, for
-- the late settlement of that order). The hold function and the late recount share this one rule.
CREATE OR REPLACE FUNCTION tukio_type_seats_taken(p_type_id varchar, p_now timestamptz, p_except_order varchar)
RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT ((SELECT count(*) FROM tickets t WHERE t.ticket_type_id = p_type_id AND t.voided_at IS NULL)
        + (SELECT coalesce(sum(i.quantity), 0) FROM order_items i JOIN orders o ON o.id = i.order_id
            WHERE i.ticket_type_id = p_type_id AND o.status = 'pending' AND o.hold_expires_at > p_now
              AND o.id IS DISTINCT FROM p_except_order))::integer
$$;

-- Uses of a promo code: orders that paid with it or hold seats with it now.
CREATE OR REPLACE FUNCTION tukio_promo_uses(p_promo_id varchar, p_now timestamptz)
RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT count(*)::integer FROM orders o
   WHERE o.promo_code_id = p_promo_id AND (o.status = 'paid' OR (o.status = 'pending' AND o.hold_expires_at > p_now))
$$;
