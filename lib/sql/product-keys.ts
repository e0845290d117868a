import { sql, type SQL } from 'drizzle-orm';
import { bigintArray, textArray } from './arrays';

/** A product as the catalogue tables' keys hold it: its store, then its row id. */
export interface ProductKey {
  storeId: string;
  productId: number;
}

/**
 * These products' rows in a catalogue table, named by store and id: every such table is keyed by
 * store first and distributed by store on Citus. A filter on the product alone read the whole of
 * the postings' and embeddings' keys, 60 to 90 ms a statement at 55,000 products on a server, four
 * statements in every sync, and on Citus sent a one-store sync's statements to every shard. One
 * store is named with `=`, a constant Citus routes to the store's one shard.
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
