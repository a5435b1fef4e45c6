ALTER TABLE "events" ADD COLUMN "refund_policy" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "refund_percent" integer;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "refund_until_hours" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "transferred_from" varchar(24);--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_transferred_from_tickets_id_fk" FOREIGN KEY ("transferred_from") REFERENCES "public"."tickets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tickets_transferred_from_idx" ON "tickets" USING btree ("transferred_from");--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_refund_policy_valid" CHECK ("events"."refund_policy" in ('none', 'full', 'partial'));--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_refund_percent_valid" CHECK (("events"."refund_policy" = 'partial' and "events"."refund_percent" between 1 and 99) or ("events"."refund_policy" <> 'partial' and "events"."refund_percent" is null));--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_refund_until_hours_valid" CHECK ("events"."refund_until_hours" between 0 and 720);--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_void_reason_valid" CHECK ("tickets"."void_reason" in ('event_cancelled', 'self_cancel', 'transferred'));--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_void_together" CHECK (("tickets"."voided_at" is null) = ("tickets"."void_reason" is null));
--> statement-breakpoint
-- A void ticket (event cancelled, cancelled by its holder, transferred) holds no seat: 0003's checked hold
-- counts valid tickets only, like the API server's own seat counts.
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
-- A void ticket stays void, with the reason it was voided for: a refund or a replacement ticket was made
-- because of it, so bringing it back would sell its seat twice.
CREATE OR REPLACE FUNCTION tukio_ticket_void_final() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'a void ticket stays void (ticket %)', OLD.id;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_void_final BEFORE UPDATE OF voided_at, void_reason ON tickets FOR EACH ROW
  WHEN (OLD.voided_at IS NOT NULL AND (NEW.voided_at IS DISTINCT FROM OLD.voided_at OR NEW.void_reason IS DISTINCT FROM OLD.void_reason))
  EXECUTE FUNCTION tukio_ticket_void_final();
