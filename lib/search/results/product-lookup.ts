import { and, asc, eq, notInArray } from 'drizzle-orm';
import type { Caller } from '../../auth/keys';
import type { GetProductQuery } from '../../contract/products';
import type { SearchProduct } from '../../contract/search';
import type { Db } from '../../db/client';
import { products, stores } from '../../db/schema';
import { ApiError } from '../../errors';
import type { ProductKey } from '../../sql/product-keys';
import { loadProducts, shippingFor, toResult } from './product-results';
import { requestedStores } from './store-scope';

/**
 * The row id of the product with this platform id in the stores the caller may use (or in the
 * one store named). Shopify's product ids are unique across the platform, so several stores
 * hold the same id only when they copy one catalogue (simulators, tests); the store registered
 * first then answers, and store_id or store_domain picks another.
 */
async function findProductKey(
  db: Db,
  caller: Caller,
  externalId: string,
  query: GetProductQuery,
): Promise<ProductKey | undefined> {
  const requested = await requestedStores(db, caller, query);
  const inScope =
    'storeId' in requested
      ? eq(products.storeId, requested.storeId)
      : requested.excludeStoreIds.length > 0
        ? notInArray(products.storeId, requested.excludeStoreIds)
        : undefined;
  const [row] = await db
    .select({ storeId: products.storeId, productId: products.id })
    .from(products)
    .innerJoin(stores, eq(stores.id, products.storeId))
    .where(and(eq(products.externalId, externalId), inScope))
    .orderBy(asc(stores.createdAt), asc(stores.id))
    .limit(1);
  return row;
}

/** GET /products/{id}: one product as search shows it, links pre-filled for the profile given. */
export async function getProduct(
  db: Db,
  caller: Caller,
  externalId: string,
  query: GetProductQuery,
): Promise<SearchProduct> {
  const key = await findProductKey(db, caller, externalId, query);
  const row = key && (await loadProducts(db, [key])).get(key.productId);
  if (!row) {
    throw new ApiError(
      'PRODUCT_NOT_FOUND',
      `No product with id ${externalId}`,
      404,
      `Unknown product id ${externalId}`,
    );
  }
  return toResult(row, await shippingFor(db, caller, query.profile_id));
}
