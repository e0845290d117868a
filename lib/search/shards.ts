import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import type { SearchScope } from './retrieve';

/**
 * How long a map of stores to shards is used at most. A new store is noticed at once (the count
 * of stores changes); a shard split or move keeps the count, and until the map is read again a
 * part that now spans two shards still runs correctly, as a multi-shard statement.
 */
const SHARD_MAP_MAX_AGE_MS = 60_000;

interface ShardMap {
  readAt: number;
  storeCount: number;
  /** The stores of each shard of `products`. */
  shards: string[][];
}

/** Per database handle: whether it is Citus, and its last map of stores to shards. */
const citus = new WeakMap<Db, Promise<boolean>>();
const maps = new WeakMap<Db, ShardMap>();

function isCitus(db: Db): Promise<boolean> {
  let known = citus.get(db);
  if (!known) {
    known = queryRows<{ citus: boolean }>(
      db,
      sql`SELECT to_regclass('pg_dist_partition') IS NOT NULL AS citus`,
    ).then(([row]) => Boolean(row?.citus));
    known.catch(() => citus.delete(db));
    citus.set(db, known);
  }
  return known;
}

async function shardMap(db: Db): Promise<ShardMap> {
  const [row] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM stores`);
  const storeCount = Number(row?.n ?? 0);
  const cached = maps.get(db);
  if (
    cached &&
    cached.storeCount === storeCount &&
    Date.now() - cached.readAt < SHARD_MAP_MAX_AGE_MS
  ) {
    return cached;
  }
  const readAt = Date.now();
  const rows = await queryRows<{ store_ids: string[] }>(
    db,
    sql`SELECT array_agg(id ORDER BY id) AS store_ids FROM stores
        GROUP BY get_shard_id_for_distribution_column('products', id)
        ORDER BY min(id)`,
  );
  const map = {
    readAt,
    storeCount: rows.reduce((sum, r) => sum + r.store_ids.length, 0),
    shards: rows.map((r) => r.store_ids),
  };
  maps.set(db, map);
  return map;
}

/**
 * The parts of a search's scope that each run whole on one shard. On Citus an all-stores search
 * becomes one scope per shard (its stores, less those closed to the caller): each is a router
 * query that runs every step of the retrieval on the worker holding the shard, in one round trip,
 * and the shards run in parallel. Sent as one statement, Citus would plan its ordered and limited
 * steps as several distributed rounds over every shard. Each part asks for as many candidates as
 * the whole search, as a search engine asks each shard for a full page: a shard may hold all of
 * the best. Elsewhere, and for one store, the scope is one part.
 */
export async function shardScopes(db: Db, scope: SearchScope): Promise<SearchScope[]> {
  if (!('excludeStoreIds' in scope) || !(await isCitus(db))) return [scope];
  const { shards } = await shardMap(db);
  const closed = new Set(scope.excludeStoreIds);
  return shards
    .map((stores) => stores.filter((id) => !closed.has(id)))
    .filter((stores) => stores.length > 0)
    .map((storeIds) => ({ storeIds }));
}
