import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';
import { indexLexically } from '../../search/index/indexer';
import { progressLine } from '../progress';

/** Products per postings batch: what indexProducts takes per lexical batch. */
const POSTINGS_BATCH = 1000;

const seconds = (since: number) => Math.round((performance.now() - since) / 100) / 10;

/**
 * How long the postings take to build whole, measured after the ingest: every product's postings
 * written again through the indexer's lexical half (what reindexAll does for them), one batch
 * after another. A sync builds them a batch at a time as it goes; this is the cost of building
 * them over the whole catalogue at once. The HNSW index's whole build is the one the bulk load
 * ends with (bulk-load.ts), timed there.
 */
export async function measurePostingsBuild(db: Db): Promise<{ postings_s: number }> {
  const keys = (
    await queryRows<{ id: string | number; store_id: string }>(
      db,
      sql`SELECT id, store_id FROM products ORDER BY store_id, id`,
    )
  ).map((r) => ({ storeId: r.store_id, productId: Number(r.id) }));
  const report = progressLine('postings rebuilt, products');
  const postingsStarted = performance.now();
  for (let start = 0; start < keys.length; start += POSTINGS_BATCH) {
    await indexLexically(db, keys.slice(start, start + POSTINGS_BATCH));
    report(Math.min(start + POSTINGS_BATCH, keys.length), keys.length);
  }
  const postings = seconds(postingsStarted);
  console.log(`postings of ${keys.length} products rebuilt in ${postings} s`);
  return { postings_s: postings };
}

/** The whole database's size on disk in MB, the workers' databases included on Citus. */
export async function databaseDiskMegabytes(db: Db): Promise<number> {
  const [own] = await queryRows<{ bytes: number }>(
    db,
    sql`SELECT pg_database_size(current_database())::float8 AS bytes`,
  );
  const [citus] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'citus'`,
  );
  let bytes = Number(own!.bytes);
  if (Number(citus!.n) > 0) {
    const [workers] = await queryRows<{ bytes: number }>(
      db,
      sql`SELECT coalesce(sum(result::float8), 0)::float8 AS bytes FROM run_command_on_workers(
            $$SELECT pg_database_size(current_database())$$) WHERE success`,
    );
    bytes += Number(workers!.bytes);
  }
  return Math.round(bytes / 1048576);
}
