-- hnsw.ef_search 40 instead of 100 (lib/db/session-settings.ts says why), as the database's
-- default on every server, as 0011 made 100; the search checks what sessions start with, so until
-- this runs as the owner it keeps setting the value itself.
DO $$
BEGIN
  EXECUTE format('ALTER DATABASE %I SET hnsw.ef_search = 40', current_database());
EXCEPTION WHEN insufficient_privilege THEN
  RAISE WARNING 'hnsw.ef_search not made 40 by default (only the database owner can): run ALTER DATABASE % SET hnsw.ef_search = 40', current_database();
END $$;
