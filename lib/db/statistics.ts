import { sql } from 'drizzle-orm';
import { queryRows, type Db } from './client';

/** autovacuum's defaults (autovacuum_analyze_threshold, autovacuum_analyze_scale_factor). */
const ANALYZE_THRESHOLD = 50;
const ANALYZE_SCALE_FACTOR = 0.1;

/**
 * autovacuum's rule: whether rows changed since the planner last counted `planned` of them
 * (-1 before any ANALYZE, 0 on a Citus coordinator, whose tables hold no rows) reach 50 and a
 * tenth of the table. The change is the larger of the rows a write `changed` and the drift of
 * the table's count to `current`, which many small writes add up to.
 */
function outOfDate(planned: number | null | undefined, current: number, changed: number): boolean {
  const counted = planned ?? -1;
  if (counted <= 0) return true;
  const drift = Math.max(Math.abs(current - counted), changed);
  return drift >= ANALYZE_THRESHOLD + ANALYZE_SCALE_FACTOR * counted;
}

/**
 * Whether the planner's statistics of the catalogue are out of date (outOfDate): the products
 * this write added, changed or removed, or those indexed now (search_corpus_stats) against those
 * the planner last counted. PGlite's own change counters (`n_mod_since_analyze`) stay at 0 within
 * a session, so they cannot tell.
 */
async function statisticsStale(db: Db, changed: number): Promise<boolean> {
  const [row] = await queryRows<{ planned: number | null; indexed: number | null }>(
    db,
    sql`SELECT (SELECT reltuples::float8 FROM pg_class WHERE oid = 'products'::regclass) AS planned,
               (SELECT doc_count FROM search_corpus_stats) AS indexed`,
  );
  return outOfDate(row?.planned, row?.indexed ?? 0, changed);
}

/**
 * Vacuums the postings and, when they are out of date, refreshes the planner's statistics of the
 * tables search reads, after a write that added, changed or removed `changed` products. Lexical
 * retrieval reads postings by index alone (term, impact, store, product), which skips the table
 * only for pages the visibility map marks all visible: PGlite runs no autovacuum, so without the
 * VACUUM every read fetched each posting's table row as well (41 ms against 1.3 ms for a term
 * with 1,600 postings). VACUUM visits only the pages changed since the last one. Without an
 * ANALYZE a freshly ingested catalogue looks empty to the planner, which then picks plans that
 * scan whole tables per candidate. ANALYZE samples up to 30,000 rows of each table whatever its
 * size: at 55,000 products it took PGlite 2.3 to 3.3 s, during which an embedded database answers
 * no search, and it was most of each small store's sync. So it runs only when autovacuum's rule
 * says so (above); on a server autovacuum applies the same rule in the background.
 */
export async function maintainSearchTables(db: Db, changed: number): Promise<void> {
  await db.execute(sql`VACUUM search_postings`);
  if (!(await statisticsStale(db, changed))) return;
  await db.execute(
    sql`ANALYZE search_postings, products, variants, product_embeddings, search_store_stats`,
  );
}

/**
 * Refreshes the planner's statistics of the stores' policies, after a policy changed. Every
 * all-stores search reads the closed stores through a partial index (stores_not_open_idx) when
 * the statistics count few of them; counts from before a change of many policies made PGlite,
 * which runs no autovacuum, scan every store instead (at 1,000 stores, 0.25 ms per search). A
 * statement of its own: on Citus these are reference tables, and one ANALYZE naming them beside
 * the distributed tables fails inside a transaction (CheckConflictingRelationAccesses).
 */
export async function analyzeStorePolicies(db: Db): Promise<void> {
  await db.execute(sql`ANALYZE stores, store_allowed_developers`);
}

/**
 * After a store was registered: refreshes the statistics of the stores and their allow-lists when
 * their count is out of date (outOfDate), as autovacuum would on a server. PGlite runs none, and
 * with stores never analyzed the planner took most of them for closed (824 of 1,000) and read
 * them all for every all-stores search, where the partial index reads the closed ones alone.
 */
export async function analyzeStoresWhenStale(db: Db): Promise<void> {
  const [row] = await queryRows<{ planned: number | null; stores: number }>(
    db,
    sql`SELECT (SELECT reltuples::float8 FROM pg_class WHERE oid = 'stores'::regclass) AS planned,
               (SELECT count(*)::float8 FROM stores) AS stores`,
  );
  if (outOfDate(row?.planned, row?.stores ?? 0, 0)) await analyzeStorePolicies(db);
}
