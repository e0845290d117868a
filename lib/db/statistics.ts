import { sql } from 'drizzle-orm';
import type { Db } from './client';

/**
 * Refreshes the planner's statistics of the tables search reads. PGlite runs no autovacuum, so
 * without this a freshly ingested catalogue looks empty to the planner, which then picks plans
 * that scan whole tables per candidate. On a server it only saves waiting for autovacuum.
 * ANALYZE samples a bounded number of rows, so its cost stays flat as catalogues grow.
 */
export async function refreshSearchStatistics(db: Db): Promise<void> {
  await db.execute(
    sql`ANALYZE products, variants, product_embeddings, search_postings, search_store_stats`,
  );
}
