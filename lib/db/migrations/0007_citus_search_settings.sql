-- On Citus, the settings vector search needs become the database's defaults, which Citus
-- propagates to the workers. The alternative, SET LOCAL with citus.propagate_set_commands, opens
-- a transaction block on every worker connection of every search (about 18 ms per all-stores
-- search on two workers). hnsw.ef_search matches HNSW_EF_SEARCH in lib/search/retrieve.ts.
-- Cached worker connections: Citus keeps one per worker by default, so each all-stores search
-- opened a new backend for all but one of its shards per worker (44 ms against 19 ms for a
-- nearest-neighbour query over 32 shards). Elsewhere (PGlite, a plain server) nothing changes:
-- the search sets what it needs with SET LOCAL.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
    BEGIN
      EXECUTE format('ALTER DATABASE %I SET hnsw.ef_search = 100', current_database());
      EXECUTE format('ALTER DATABASE %I SET hnsw.iterative_scan = relaxed_order', current_database());
      EXECUTE format('ALTER DATABASE %I SET citus.max_cached_conns_per_worker = 16', current_database());
    EXCEPTION WHEN insufficient_privilege THEN
      RAISE WARNING 'search settings not applied (only the database owner can): run ALTER DATABASE % SET hnsw.ef_search = 100, hnsw.iterative_scan = relaxed_order, citus.max_cached_conns_per_worker = 16', current_database();
    END;
  END IF;
END $$;
