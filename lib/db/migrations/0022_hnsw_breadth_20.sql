-- hnsw.ef_search 20 instead of 40 (lib/db/session-settings.ts says why), as the database's default
-- on every server, as 0015 made 40. Sessions opened before this ran keep 40: openPostgres serves
-- from a pool opened after the migrations, and the search checks what sessions start with.
DO $$
BEGIN
  EXECUTE format('ALTER DATABASE %I SET hnsw.ef_search = 20', current_database());
EXCEPTION WHEN insufficient_privilege THEN
  RAISE WARNING 'hnsw.ef_search not made 20 by default (only the database owner can): run ALTER DATABASE % SET hnsw.ef_search = 20', current_database();
END $$;
