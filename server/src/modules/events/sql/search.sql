-- Database functions of the events module: the source of truth, applied on every start after the migrations
-- (server/src/db/database-functions.ts), so a change here is a change of this file only. Copies in old migrations
-- are history.

-- Every lexeme of an event's search vector becomes a known word: set-based per inserting statement (a
-- bulk import is one insert of its distinct words), per row when a title, place or description changes.
CREATE OR REPLACE FUNCTION tukio_remember_search_words() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'ROW' THEN
    INSERT INTO search_words (word) SELECT v.lexeme FROM unnest(NEW.search_vector) AS v ON CONFLICT DO NOTHING;
  ELSE
    INSERT INTO search_words (word)
    SELECT DISTINCT v.lexeme FROM added, unnest(added.search_vector) AS v ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END;
$$;

-- A known word as tsquery text (quoted: the text is cast, never parsed for operators).
CREATE OR REPLACE FUNCTION tukio_tsquery_lexeme(lexeme text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT '''' || replace(replace(lexeme, '\', '\\'), '''', '''''') || '''' $$;

-- One page of a search (modules/events/event-search.repository.ts passes the arguments and reads the rows):
-- resolves the typed words to known words (search_words: the words each begins, itself as a prefix past
-- max_expansions, or when it begins none the most similar one: a typo), finds the page in (rank, start, id)
-- order, and totals the matches, all inside the database. Answers a row per hit (at most page_size + 1, the
-- extra one saying a next page exists), then one last row with hit_id null carrying the total and the
-- corrected words. The page and the total are planned afresh with the words as constants (EXECUTE), so the
-- planner's estimates follow each word's statistics: a rare word is found through a GIN index, a common one
-- by walking start order until a page is full.
CREATE OR REPLACE FUNCTION tukio_search(
  words text[], from_at timestamptz, to_at timestamptz, free boolean, place_pattern text,
  page_size integer, skip integer, after_rank integer, after_micros bigint, after_id text,
  exact_max integer, max_expansions integer, correction_similarity real, correction_min_length integer
) RETURNS TABLE (hit_id text, hit_rank integer, starts_at_micros text, total bigint, total_is_estimate boolean, corrected_query text)
-- A page's worth of rows: joined to events, each hit is then looked up by its key (nested loop), never hashed.
LANGUAGE plpgsql ROWS 50 AS $$
DECLARE
  typed text;
  begun text[];
  closest text;
  parts text[] := '{}';
  searched text[] := '{}';
  corrected boolean := false;
  unmatched boolean := false;
  all_q text;
  any_q text;
  eligible text;
  straddling text[];
  matching text;
  conditions text[];
  branches text[] := '{}';
  take integer;
  found_rows integer;
  seen bigint;
  plan json;
  estimated bigint;
  counted bigint;
  found_ids text[];
  found_ranks integer[];
  found_micros bigint[];
BEGIN
  FOREACH typed IN ARRAY coalesce(words, '{}') LOOP
    -- Byte-wise comparisons (text_pattern_ops) give the words beginning with a prefix from the index.
    begun := ARRAY(SELECT w.word FROM search_words w WHERE w.word ~>=~ typed AND w.word ~<~ (typed || chr(1114111)) ORDER BY w.word LIMIT max_expansions + 1);
    IF cardinality(begun) > max_expansions THEN
      parts := parts || (tukio_tsquery_lexeme(typed) || ':*');
      searched := searched || typed;
    ELSIF cardinality(begun) > 0 THEN
      parts := parts || ('(' || (SELECT string_agg(tukio_tsquery_lexeme(b), ' | ') FROM unnest(begun) AS b) || ')');
      searched := searched || typed;
    ELSE
      closest := NULL;
      -- Shorter words are not corrected: too many words sit within one typo of them. The closest word only:
      -- a second one mostly widens the search (kisumo: kisumu, not kisii).
      IF length(typed) >= correction_min_length THEN
        SELECT w.word INTO closest FROM search_words w
        WHERE w.word % typed AND similarity(w.word, typed) >= correction_similarity
        ORDER BY similarity(w.word, typed) DESC, w.word LIMIT 1;
      END IF;
      IF closest IS NULL THEN
        unmatched := true;
        searched := searched || typed;
      ELSE
        parts := parts || tukio_tsquery_lexeme(closest);
        searched := searched || closest;
        corrected := true;
      END IF;
    END IF;
  END LOOP;
  corrected_query := CASE WHEN corrected THEN array_to_string(searched, ' ') END;
  -- A word that stands for no known word: nothing can match.
  IF unmatched THEN
    total := 0;
    total_is_estimate := false;
    RETURN NEXT;
    RETURN;
  END IF;

  -- 'approved' written as a literal: the planner then matches the partial index on approved events.
  -- A series whose first date is before the range but with an active date in it (docs/decisions/event-series.md):
  -- few, found on their own small index, then named by id so the common case (none) keeps the start-order range.
  SELECT coalesce(array_agg(e.id::text), '{}') INTO straddling FROM events e
  WHERE e.status = 'approved' AND e.last_date_at IS NOT NULL AND e.last_date_at >= from_at AND e.starts_at < from_at
    AND EXISTS (SELECT 1 FROM event_dates d WHERE d.event_id = e.id AND d.status = 'active' AND d.starts_at >= from_at
      AND (to_at IS NULL OR d.starts_at < to_at));
  IF cardinality(straddling) = 0 THEN
    eligible := format('status = %L and starts_at >= %L::timestamptz', 'approved', from_at);
    IF to_at IS NOT NULL THEN eligible := eligible || format(' and starts_at < %L::timestamptz', to_at); END IF;
  ELSE
    eligible := format('status = %L and (starts_at >= %L::timestamptz', 'approved', from_at);
    IF to_at IS NOT NULL THEN eligible := eligible || format(' and starts_at < %L::timestamptz', to_at); END IF;
    eligible := eligible || format(' or id = any(%L::text[]))', straddling);
  END IF;
  IF free IS NOT NULL THEN eligible := eligible || format(' and is_paid = %L', NOT free); END IF;
  IF place_pattern IS NOT NULL THEN eligible := eligible || format(' and location ilike %L', place_pattern); END IF;
  matching := eligible;

  -- The relevance classes, best first: every word in the title; in the title and the place (some word in
  -- the place); anywhere (some word in the description). The extra tests on the place's and the
  -- description's own vectors are there for their statistics: without them the planner takes "matches, but
  -- not in the title" to be as common as the matches, and walks every event for a word found only in titles.
  IF cardinality(parts) = 0 THEN
    conditions := ARRAY['true'];
  ELSE
    all_q := quote_literal(array_to_string(parts, ' & ')) || '::tsquery';
    any_q := quote_literal(array_to_string(parts, ' | ')) || '::tsquery';
    matching := matching || ' and search_vector @@ ' || all_q;
    conditions := ARRAY[
      format('title_vector @@ %s', all_q),
      format('location_vector @@ %s and place_vector @@ %s and not title_vector @@ %s', any_q, all_q, all_q),
      format('description_vector @@ %s and search_vector @@ %s and not place_vector @@ %s', any_q, all_q, all_q)
    ];
  END IF;

  IF after_rank IS NOT NULL THEN skip := 0; END IF;
  total_is_estimate := false;
  IF cardinality(parts) > 0 THEN
    -- The planner's estimate (column statistics), at the cost of planning, not running, a count.
    EXECUTE 'explain (format json) select 1 from events where ' || matching INTO plan;
    estimated := round((plan -> 0 -> 'Plan' ->> 'Plan Rows')::numeric);
    IF estimated <= exact_max THEN
      -- Few matches: all of them at once (the GIN index of every word), each with its class, sorted here and
      -- counted: one index search where the classes and then the count would make up to four. Past exact_max
      -- (the estimate was low) the classes find the page after all.
      EXECUTE format(
        'select array_agg(id::text order by rank, starts_at, id), array_agg(rank order by rank, starts_at, id), array_agg(micros order by rank, starts_at, id), count(*)
         from (select id, starts_at, (extract(epoch from starts_at) * 1000000)::bigint as micros,
                 case when title_vector @@ %1$s then 0 when place_vector @@ %1$s then 1 else 2 end as rank
               from events where %2$s limit %3$s) m',
        all_q, matching, exact_max + 1) INTO found_ids, found_ranks, found_micros, counted;
      IF counted <= exact_max THEN
        RETURN QUERY SELECT u.id, u.rank, u.micros::text, NULL::bigint, NULL::boolean, NULL::text
          FROM unnest(found_ids, found_ranks, found_micros) WITH ORDINALITY AS u(id, rank, micros, ord)
          WHERE after_rank IS NULL OR (u.rank, u.micros, u.id) > (after_rank, after_micros, after_id)
          ORDER BY u.ord OFFSET skip LIMIT page_size + 1;
        total := counted;
        RETURN NEXT;
        RETURN;
      END IF;
    END IF;
  END IF;

  -- Each class is its own query in start order, chained with UNION ALL under one LIMIT: Append runs its
  -- branches in order, so a later class runs only when the earlier ones did not fill the page.
  take := skip + page_size + 1;
  FOR r IN 0 .. cardinality(conditions) - 1 LOOP
    CONTINUE WHEN after_rank IS NOT NULL AND r < after_rank;
    branches := branches || format(
      '(select id, %s as rank, (extract(epoch from starts_at) * 1000000)::bigint::text as micros from events where %s and %s%s order by starts_at, id limit %s)',
      r, eligible, conditions[r + 1],
      CASE WHEN r = after_rank THEN format(' and (starts_at, id) > (timestamptz ''epoch'' + %s * interval ''1 microsecond'', %L)', after_micros, after_id) ELSE '' END,
      take);
  END LOOP;
  RETURN QUERY EXECUTE format('select id::text, rank, micros, null::bigint, null::boolean, null::text from (%s) ranked limit %s offset %s',
    array_to_string(branches, ' union all '), page_size + 1, skip);
  GET DIAGNOSTICS found_rows = ROW_COUNT;

  -- Every match is on this page or before it: the count is known without counting.
  IF after_rank IS NULL AND found_rows <= page_size AND (found_rows > 0 OR skip = 0) THEN
    total := skip + found_rows;
    RETURN NEXT;
    RETURN;
  END IF;
  seen := CASE WHEN after_rank IS NULL THEN skip ELSE 0 END + found_rows;
  -- Without words: estimated and counted here (with words both are known by now).
  IF estimated IS NULL THEN
    EXECUTE 'explain (format json) select 1 from events where ' || matching INTO plan;
    estimated := round((plan -> 0 -> 'Plan' ->> 'Plan Rows')::numeric);
    IF estimated <= exact_max THEN
      EXECUTE format('select count(*) from (select 1 from events where %s limit %s) m', matching, exact_max + 1) INTO counted;
      IF counted <= exact_max THEN
        total := counted;
        RETURN NEXT;
        RETURN;
      END IF;
    END IF;
  END IF;
  total := greatest(estimated, seen, exact_max + 1);
  total_is_estimate := true;
  RETURN NEXT;
END;
$$;
