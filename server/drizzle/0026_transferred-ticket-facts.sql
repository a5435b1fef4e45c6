-- A transferred ticket's replacement was issued without the type and price of the ticket it replaced: its
-- type's capacity did not count it, the dashboard's types table left it out, and a cancel refunded its
-- order's average price. Each replacement now takes them from the ticket at the start of its chain of
-- transfers (a ticket passed on twice replaces a replacement).
WITH RECURSIVE chain (id, origin) AS (
  SELECT id, id FROM tickets WHERE transferred_from IS NULL
  UNION ALL
  SELECT t.id, chain.origin FROM tickets t JOIN chain ON t.transferred_from = chain.id
)
UPDATE tickets t
   SET ticket_type_id = o.ticket_type_id, price_paid = o.price_paid
  FROM chain JOIN tickets o ON o.id = chain.origin
 WHERE t.id = chain.id AND t.transferred_from IS NOT NULL
   AND (t.ticket_type_id IS DISTINCT FROM o.ticket_type_id OR t.price_paid IS DISTINCT FROM o.price_paid);
