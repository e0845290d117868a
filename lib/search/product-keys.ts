import { sql, type SQL } from 'drizzle-orm';
import { bigintArray, textArray } from './sql-arrays';

/** A product as the catalogue tables' keys hold it: its store, then its row id. */
export interface ProductKey {
  storeId: string;
  productId: number;
}

/**
 * These products' rows in a table keyed by store first: (store_id, product_id) in the postings
 * and the embeddings, (store_id, id) in products. A filter on the product alone scanned the whole of such an index, 60 to 90 ms a
 * statement at 55,000 products on a server, four statements in every sync. One store is named
 * with `=`, which Citus routes to the store's one shard (it prunes by constants); several by
 * `= ANY`, which every engine reads as index probes.
 */
export function ofProducts(
  keys: readonly ProductKey[],
  { alias, idColumn = 'product_id' }: { alias?: string; idColumn?: string } = {},
): SQL {
  const column = (name: string) => sql.raw(alias ? `${alias}.${name}` : name);
  const storeIds = [...new Set(keys.map((k) => k.storeId))];
  const stores =
    storeIds.length === 1
      ? sql`${column('store_id')} = ${storeIds[0]}`
      : sql`${column('store_id')} = ANY(${textArray(storeIds)})`;
  return sql`${stores} AND ${column(idColumn)} = ANY(${bigintArray(keys.map((k) => k.productId))})`;
}
