import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { textArray } from '../../sql/arrays';
import { newCacheVersion } from '../retrieve/cache-version';

/**
 * Gives the stores' text vectors a new version, so that one-store searches load them again
 * (lib/search/retrieve/store-vectors-cache.ts). Run once the change has committed, never inside
 * its transaction: a search that reads the new version then loads what the change wrote. Inside
 * a Citus transaction, the coordinator could show the version before a worker shows the vectors.
 */
export async function touchStoreVectors(db: Db, storeIds: readonly string[]): Promise<void> {
  if (storeIds.length === 0) return;
  await db.execute(sql`
    UPDATE search_store_stats SET vectors_version = ${newCacheVersion()}::bigint
    WHERE store_id = ANY(${textArray([...new Set(storeIds)].sort())})`);
}
