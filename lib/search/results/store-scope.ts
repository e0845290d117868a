import { sql } from 'drizzle-orm';
import type { Caller } from '../../auth/keys';
import type { Db } from '../../db/client';
import { queryPrepared } from '../../db/prepared';
import {
  closedStoreIds,
  requireVisibleStoreByDomain,
  requireVisibleStoreId,
} from '../../stores/access';
import type { SearchScope } from '../retrieve/request';

/** The stores a request reads: one store, or every store but some. */
export type RequestedStores = { storeId: string } | { excludeStoreIds: string[] };

/**
 * The store named by store_id or store_domain (STORE_NOT_FOUND unless the caller may use it),
 * or, when neither is given, every store but those whose policy shuts the caller out. Search
 * and the product lookup read the same stores.
 */
export async function requestedStores(
  db: Db,
  caller: Caller,
  named: { store_id?: string; store_domain?: string },
): Promise<RequestedStores> {
  // An id wins over a domain.
  if (named.store_id !== undefined) {
    await requireVisibleStoreId(db, caller.developerId, named.store_id);
    return { storeId: named.store_id };
  }
  if (named.store_domain !== undefined) {
    const store = await requireVisibleStoreByDomain(db, caller.developerId, named.store_domain);
    return { storeId: store.id };
  }
  return { excludeStoreIds: await closedStoreIds(db, caller.developerId) };
}

/**
 * A search of one store, with its size as the index counts it (0 before its first index) and the
 * version of its text vectors. Prepared, as every one-store search reads it: on PGlite one
 * exchange instead of six.
 */
export async function oneStoreScope(db: Db, storeId: string): Promise<SearchScope> {
  const [row] = await queryPrepared<{ doc_count: number; vectors_version: number | string }>(
    db,
    sql`SELECT doc_count, vectors_version FROM search_store_stats WHERE store_id = ${storeId}`,
  );
  return {
    storeId,
    storeDocs: Number(row?.doc_count ?? 0),
    vectorsVersion: Number(row?.vectors_version ?? 0),
  };
}
