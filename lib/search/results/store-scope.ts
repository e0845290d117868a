import { and, eq, sql } from 'drizzle-orm';
import type { Caller } from '../../auth/keys';
import type { Db } from '../../db/client';
import { queryPrepared } from '../../db/prepared';
import { searchStoreStats, stores } from '../../db/schema';
import {
  closedStoreIds,
  requireVisibleStore,
  storeKeyWhere,
  storeNotFound,
  visibleTo,
  type StoreKey,
} from '../../stores/access';
import type { SearchScope } from '../retrieve/request';

/** The stores a request reads: one store, or every store but some. */
export type RequestedStores = { storeId: string } | { excludeStoreIds: string[] };

type NamedStore = { store_id?: string; store_domain?: string };

/** A store's search statistics as read (bigints and counts may come as text). */
type StoreStatsRow = { doc_count: number | string; vectors_version: number | string };

/** The search of one store from its statistics; a store not yet indexed has none (0 and 0). */
function storeScope(storeId: string, row: StoreStatsRow | undefined): SearchScope {
  return {
    storeId,
    storeDocs: Number(row?.doc_count ?? 0),
    vectorsVersion: Number(row?.vectors_version ?? 0),
  };
}

/** The store the request names, if it names one. An id wins over a domain. */
function storeKey(named: NamedStore): StoreKey | undefined {
  if (named.store_id !== undefined) return { id: named.store_id };
  if (named.store_domain !== undefined) return { domain: named.store_domain };
  return undefined;
}

/**
 * The store named by store_id or store_domain (STORE_NOT_FOUND unless the caller may use it),
 * or, when neither is given, every store but those whose policy shuts the caller out. Search
 * and the product lookup read the same stores.
 */
export async function requestedStores(
  db: Db,
  caller: Caller,
  named: NamedStore,
): Promise<RequestedStores> {
  const key = storeKey(named);
  return key
    ? { storeId: await requireVisibleStore(db, caller.developerId, key) }
    : { excludeStoreIds: await closedStoreIds(db, caller.developerId) };
}

/**
 * The search of the stores requestedStores picks, a named store's with its statistics. The
 * store's access and statistics are one prepared statement: as two, a one-store search ran one
 * statement more than an all-stores search, 0.3 ms of its median at 54,667 products in one store
 * (docs/bench-log.md#scale).
 */
export async function searchScope(db: Db, caller: Caller, named: NamedStore): Promise<SearchScope> {
  const key = storeKey(named);
  if (!key) return { excludeStoreIds: await closedStoreIds(db, caller.developerId) };
  const [row] = await queryPrepared<StoreStatsRow & { id: string }>(
    db,
    db
      .select({
        id: stores.id,
        docCount: sql`coalesce(${searchStoreStats.docCount}, 0)`.as('doc_count'),
        vectorsVersion: sql`coalesce(${searchStoreStats.vectorsVersion}, 0)`.as('vectors_version'),
      })
      .from(stores)
      .leftJoin(searchStoreStats, eq(searchStoreStats.storeId, stores.id))
      .where(and(storeKeyWhere(key), visibleTo(db, caller.developerId)))
      .getSQL(),
  );
  if (!row) throw storeNotFound(key);
  return storeScope(row.id, row);
}

/**
 * A search of one store, with its size as the index counts it (0 before its first index) and the
 * version of its text vectors. Prepared, as every one-store search reads it: on PGlite one
 * exchange instead of six.
 */
export async function oneStoreScope(db: Db, storeId: string): Promise<SearchScope> {
  const [row] = await queryPrepared<StoreStatsRow>(
    db,
    sql`SELECT doc_count, vectors_version FROM search_store_stats WHERE store_id = ${storeId}`,
  );
  return storeScope(storeId, row);
}
