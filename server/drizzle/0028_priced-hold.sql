-- The hold now receives an order priced by the API server (checkout/price-order.ts) and counts stock only
-- (tukio_hold_priced_order in checkout/sql/hold-order.sql); the function that priced inside the database is gone.
DROP FUNCTION IF EXISTS tukio_hold_order(varchar, varchar, varchar, jsonb, integer, text, text, text, double precision, timestamptz);
