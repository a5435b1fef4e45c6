CREATE TABLE "waitlist_entries" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"event_id" varchar(24) NOT NULL,
	"user_id" varchar(24) NOT NULL,
	"quantity" integer NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"offered_quantity" integer,
	"offered_at" timestamp with time zone,
	"offer_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "waitlist_status_valid" CHECK ("waitlist_entries"."status" in ('waiting', 'offered', 'accepted', 'expired', 'left', 'closed')),
	CONSTRAINT "waitlist_quantity_valid" CHECK ("waitlist_entries"."quantity" between 1 and 10),
	CONSTRAINT "waitlist_offer_together" CHECK (("waitlist_entries"."status" = 'waiting' and "waitlist_entries"."offered_at" is null) or ("waitlist_entries"."status" <> 'waiting' and "waitlist_entries"."status" <> 'offered') or ("waitlist_entries"."status" = 'offered' and "waitlist_entries"."offered_at" is not null and "waitlist_entries"."offer_expires_at" is not null and "waitlist_entries"."offered_quantity" between 1 and "waitlist_entries"."quantity"))
);
--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_open_idx" ON "waitlist_entries" USING btree ("event_id","user_id") WHERE "waitlist_entries"."status" in ('waiting', 'offered');--> statement-breakpoint
CREATE INDEX "waitlist_event_status_idx" ON "waitlist_entries" USING btree ("event_id","status","created_at");--> statement-breakpoint
CREATE INDEX "waitlist_user_idx" ON "waitlist_entries" USING btree ("user_id");--> statement-breakpoint
-- Seats promised to the waitlist: each live offer of someone other than p_except_user, less what its
-- holder already holds in a live pending order for the event (paying for the offer must not count it twice).
-- The one definition of the rule: the hold function below and the API server's seat counts both call it.
CREATE OR REPLACE FUNCTION tukio_offered_seats(p_event_id varchar, p_except_user varchar, p_now timestamptz)
RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT coalesce(sum(greatest(w.offered_quantity - coalesce((
           SELECT sum(o.quantity) FROM orders o
            WHERE o.event_id = w.event_id AND o.user_id = w.user_id AND o.status = 'pending' AND o.hold_expires_at > p_now), 0), 0)), 0)::integer
    FROM waitlist_entries w
   WHERE w.event_id = p_event_id AND w.status = 'offered' AND w.offer_expires_at > p_now
     AND w.user_id IS DISTINCT FROM p_except_user
$$;
--> statement-breakpoint
-- 0007's checked hold, now also counting the seats offered to other people on the waitlist.
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
    SELECT (SELECT count(*) FROM tickets t WHERE t.event_id = p_event_id AND t.voided_at IS NULL)::integer
         + (SELECT coalesce(sum(o.quantity), 0) FROM orders o
             WHERE o.event_id = p_event_id AND o.status = 'pending' AND o.hold_expires_at > v_now)::integer
         + tukio_offered_seats(p_event_id, p_user_id, v_now)
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
--> statement-breakpoint
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
--> statement-breakpoint
CREATE TRIGGER tickets_waitlist_served AFTER INSERT ON tickets REFERENCING NEW TABLE AS issued
  FOR EACH STATEMENT EXECUTE FUNCTION tukio_waitlist_served();
