-- The settings vector search needs become the database's defaults on every engine, as 0007 made
-- them on Citus: every new session starts with them, so a search runs as one statement instead
-- of a transaction that sets them first (BEGIN, two SET LOCAL, the query, COMMIT: five round
-- trips, each a wait on a loaded server). The values are SESSION_SETTINGS in
-- lib/db/session-settings.ts; lib/search/search-settings.ts checks what sessions start with, so
-- that without the owner's rights here the search keeps setting them itself.
DO $$
BEGIN
  EXECUTE format('ALTER DATABASE %I SET hnsw.ef_search = 100', current_database());
  EXECUTE format('ALTER DATABASE %I SET hnsw.iterative_scan = relaxed_order', current_database());
EXCEPTION WHEN insufficient_privilege THEN
  RAISE WARNING 'search settings not made defaults (only the database owner can): run ALTER DATABASE % SET hnsw.ef_search = 100, hnsw.iterative_scan = relaxed_order', current_database();
END $$;
