-- The seat holds of the first checkout (one price per event): nothing calls them since tukio_hold_order
-- (payments/sql/hold-order.sql) replaced them, and a function nobody calls only misleads a reader of the database.
DROP FUNCTION IF EXISTS tukio_hold_seats(varchar, varchar, varchar, integer, text, double precision);
--> statement-breakpoint
DROP FUNCTION IF EXISTS tukio_hold_seats_checked(varchar, varchar, varchar, integer, text, double precision, timestamptz);
