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

-- Seats a ticket type has given out: valid tickets of it plus live holds and reservations of it (except one order, for
-- the late settlement of that order). The hold function and the late recount share this one rule.
CREATE OR REPLACE FUNCTION tukio_type_seats_taken(p_type_id varchar, p_now timestamptz, p_except_order varchar)
RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT ((SELECT count(*) FROM tickets t WHERE t.ticket_type_id = p_type_id AND t.voided_at IS NULL)
        + (SELECT coalesce(sum(i.quantity), 0) FROM order_items i JOIN orders o ON o.id = i.order_id
            WHERE i.ticket_type_id = p_type_id AND (o.status = 'reserved' OR (o.status = 'pending' AND o.hold_expires_at > p_now))
              AND o.id IS DISTINCT FROM p_except_order))::integer
$$;

-- Uses of a promo code: orders that paid with it or hold seats with it now.
CREATE OR REPLACE FUNCTION tukio_promo_uses(p_promo_id varchar, p_now timestamptz)
RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT count(*)::integer FROM orders o
   WHERE o.promo_code_id = p_promo_id AND (o.status IN ('paid', 'reserved') OR (o.status = 'pending' AND o.hold_expires_at > p_now))
$$;

-- The type a purchase naming none buys (a free registration): the cheapest, first listed among equals. The
-- tickets module asks it when it issues such a ticket (it sits below ticket types, so it reads no ticket_types).
CREATE OR REPLACE FUNCTION tukio_default_ticket_type(p_event_id varchar)
RETURNS varchar LANGUAGE sql STABLE AS $$
  SELECT t.id FROM ticket_types t WHERE t.event_id = p_event_id ORDER BY t.price, t.position LIMIT 1
$$;

-- A ticket type's name, for the tickets My Tickets lists (null for no type).
CREATE OR REPLACE FUNCTION tukio_ticket_type_name(p_type_id varchar)
RETURNS text LANGUAGE sql STABLE AS $$
  SELECT t.name FROM ticket_types t WHERE t.id = p_type_id
$$;

-- Ticket types with more valid tickets than their capacity (a void ticket holds no seat, a transferred one's
-- replacement does): the payments audit's check, asked by checkout, which sits below ticket types.
CREATE OR REPLACE FUNCTION tukio_types_over_capacity()
RETURNS TABLE (id varchar, name text, event_id varchar, capacity integer, valid integer) LANGUAGE sql STABLE AS $$
  SELECT t.id, t.name, t.event_id, t.capacity, count(k.id)::integer
    FROM ticket_types t JOIN tickets k ON k.ticket_type_id = t.id AND k.voided_at IS NULL
   WHERE t.capacity IS NOT NULL
   GROUP BY t.id, t.name, t.event_id, t.capacity
  HAVING count(k.id) > t.capacity
$$;
