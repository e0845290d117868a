import { sql, type SQL } from 'drizzle-orm';
import type { SearchProduct } from '../../contract/search';
import type { ShippingRecord } from '../../contract/shipping';
import type { Caller } from '../../auth/keys';
import type { Db } from '../../db/client';
import { queryPrepared } from '../../db/prepared';
import { ApiError } from '../../errors';
import { attachedShipping, findProfile } from '../../profiles/service';
import { checkoutUrl, checkoutUrlWithShipping } from './checkout';
import { ofProducts, type ProductKey } from '../../sql/product-keys';
import { packedRows, unpackRows } from '../../sql/packed-rows';
import type { CandidateFilters } from '../retrieve/request';
import { variantConditions } from '../retrieve/scope-sql';
import { platformId } from './platform-id';

/**
 * Products in the shape of POST /search/products: shared by search and GET /products/{id}, so
 * a product reads the same whichever way it was found.
 */

export interface ProductRow {
  id: number;
  store_id: string;
  store_name: string;
  store_domain: string;
  currency: string | null;
  external_id: string;
  title: string;
  handle: string;
  description: string;
  product_type: string;
  images: string[];
  options: Array<{ name: string; values: string[] }>;
  variants: Array<{
    external_id: string;
    title: string;
    option1: string | null;
    option2: string | null;
    option3: string | null;
    price: string;
    available: boolean;
  }>;
}

/** The profile the caller named, or PROFILE_NOT_FOUND (another developer's reads the same). */
export async function requireProfile(db: Db, caller: Caller, profileId: string) {
  const profile = await findProfile(db, caller, profileId);
  if (!profile) {
    throw new ApiError(
      'PROFILE_NOT_FOUND',
      `No profile with id ${profileId}`,
      404,
      `Unknown profile_id ${profileId}`,
    );
  }
  return profile;
}

/** The address checkout links are pre-filled with: the named profile's attached one, if any. */
export async function shippingFor(
  db: Db,
  caller: Caller,
  profileId: string | undefined,
): Promise<ShippingRecord | undefined> {
  if (profileId === undefined) return undefined;
  return attachedShipping(db, (await requireProfile(db, caller, profileId)).id);
}

/** The fields of a product row, in the order of each packed array. */
const PRODUCT_COLUMNS = [
  'id',
  'store_id',
  'store_name',
  'store_domain',
  'currency',
  'external_id',
  'title',
  'handle',
  'description',
  'product_type',
  'images',
  'options',
  'variants',
] as const;

/**
 * The statement behind loadProducts. The store is part of the filter, so that on Citus products
 * are read from the shards holding their stores only. Results from one store (a one-store search,
 * one product) name it with `=` in each read, which Citus routes to its one shard; `= ANY` of a
 * one-element array, or a variant read that followed the store through the join, went to all.
 * The rows travel packed as one JSON text (lib/sql/packed-rows.ts): as rows, PGlite's driver
 * decoded each field apart, the image lists character by character (ten results on the
 * 1,000-store bench database: 3.47 ms, against 1.85 ms as one text).
 */
export function productRowsQuery(keys: ProductKey[], filters: CandidateFilters = {}): SQL {
  const storeIds = [...new Set(keys.map((k) => k.storeId))];
  const one = storeIds.length === 1 ? storeIds[0] : undefined;
  // Each read names the one store itself: Citus prunes shards by constants, not through the join.
  const conditions = [
    one === undefined ? sql`v.store_id = p.store_id` : sql`v.store_id = ${one}`,
    sql`v.product_id = p.id`,
    ...variantConditions(filters),
  ];
  return sql`SELECT ${packedRows(PRODUCT_COLUMNS, { alias: 'r' })}::text AS rows FROM (
        SELECT p.id::float8 AS id, p.store_id, s.name AS store_name, s.domain AS store_domain,
               s.currency, p.external_id, p.title, p.handle, p.description, p.product_type,
               p.images, p.options,
               coalesce((SELECT json_agg(json_build_object(
                   'external_id', v.external_id, 'title', v.title, 'option1', v.option1,
                   'option2', v.option2, 'option3', v.option3, 'price', v.price::text,
                   'available', v.available) ORDER BY v.position, v.id)
                 FROM variants v WHERE ${sql.join(conditions, sql` AND `)}), '[]') AS variants
        FROM products p JOIN stores s ON s.id = p.store_id
        WHERE ${ofProducts(keys, { alias: 'p', idColumn: 'id' })}) r`;
}

/**
 * The products with the variants that pass the filters (all of them without filters), by row id.
 * No keys, no statement: a one-store search finds nothing in most small stores. Its empty read
 * was a round trip (on Citus to every shard: it named no store), and it ran the prepared statement
 * of ten products from ten stores, whose plan choice it spoiled: on PGlite that read took twice
 * as long.
 */
export async function loadProducts(
  db: Db,
  keys: ProductKey[],
  filters: CandidateFilters = {},
): Promise<Map<number, ProductRow>> {
  if (keys.length === 0) return new Map();
  const [packed] = await queryPrepared<{ rows: string | null }>(
    db,
    productRowsQuery(keys, filters),
  );
  const rows = unpackRows<ProductRow>(packed?.rows, PRODUCT_COLUMNS);
  return new Map(rows.map((r) => [r.id, r]));
}

export function toResult(row: ProductRow, shipping?: ShippingRecord): SearchProduct {
  const store = { id: row.store_id, name: row.store_name, domain: row.store_domain };
  return {
    id: row.external_id,
    title: row.title,
    handle: row.handle,
    description: row.description,
    product_type: row.product_type,
    images: row.images ?? [],
    options: row.options ?? [],
    variants: row.variants.map((v) => ({
      id: platformId(v.external_id),
      title: v.title,
      option1: v.option1,
      option2: v.option2,
      option3: v.option3,
      price: Number(v.price).toFixed(2),
      available: v.available,
      checkout_url: checkoutUrl(store.domain, v.external_id),
      ...(shipping
        ? {
            checkout_url_with_shipping: checkoutUrlWithShipping(
              store.domain,
              v.external_id,
              shipping,
            ),
          }
        : {}),
    })),
    store_id: store.id,
    store_name: store.name,
    store_domain: store.domain,
    currency: row.currency,
  };
}
