import { sql } from 'drizzle-orm';
import type { Caller } from '../../auth/keys';
import {
  DEFAULT_SIMILARITY_THRESHOLD,
  type LegacyProduct,
  type LegacySearchRequest,
} from '../../contract/search';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/client';
import { ApiError } from '../../errors';
import { findProfile } from '../../profiles/service';
import { requireStoreAccess } from '../../stores/access';
import { rankProducts } from '../rank/ranking';
import { oneStoreScope } from './store-scope';
import { platformId } from './platform-id';
import { bigintArray } from '../../sql/arrays';
import { scalarText } from './scalar-text';

/** The legacy operation has no count parameter; it has always answered with one page of ten. */
const LEGACY_PAGE = 10;

type RawRecord = Record<string, unknown>;

function int(value: unknown, fallback = 0): number {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : fallback;
}

function list(value: unknown): RawRecord[] {
  return Array.isArray(value)
    ? (value.filter((v) => v && typeof v === 'object') as RawRecord[])
    : [];
}

/**
 * The legacy result is Shopify's own product (Admin shape) cut to the contract's fields; files in
 * the public storefront shape lack some ids and sizes, which become 0 rather than vanishing.
 */
export function toLegacyProduct(raw: RawRecord, description: string): LegacyProduct {
  const productId = int(raw.id);
  const tags = Array.isArray(raw.tags) ? raw.tags.map(String).join(', ') : scalarText(raw.tags);
  return {
    id: scalarText(raw.id),
    title: scalarText(raw.title),
    description: description || null,
    product_type: scalarText(raw.product_type),
    tags,
    options: list(raw.options).map((o, i) => ({
      id: int(o.id),
      product_id: int(o.product_id, productId),
      name: scalarText(o.name),
      position: int(o.position, i + 1),
      values: Array.isArray(o.values) ? o.values.map(String) : [],
    })),
    images: list(raw.images).map((img, i) => ({
      id: int(img.id),
      alt: scalarText(img.alt),
      position: int(img.position, i + 1),
      product_id: int(img.product_id, productId),
      created_at: scalarText(img.created_at),
      updated_at: scalarText(img.updated_at),
      admin_graphql_api_id: scalarText(img.admin_graphql_api_id),
      width: int(img.width),
      height: int(img.height),
      src: scalarText(img.src),
      variant_ids: Array.isArray(img.variant_ids) ? img.variant_ids.map((v) => int(v)) : [],
    })),
    variants: list(raw.variants).map((v) => ({
      id: platformId(scalarText(v.id)),
      title: scalarText(v.title),
      price: Number(scalarText(v.price, '0')).toFixed(2),
    })),
  };
}

/** POST /search: the caller's profile as user, store access checked, same ranking as search. */
export async function legacySearch(db: Db, caller: Caller, req: LegacySearchRequest) {
  if (!(await findProfile(db, caller, req.user_id))) {
    throw new ApiError('BAD_REQUEST_ERROR', `user_id ${req.user_id} is not one of your profiles`);
  }
  const store = await requireStoreAccess(db, req.store_id, caller.developerId);
  const ranked = await rankProducts(db, {
    scope: await oneStoreScope(db, store.id),
    text: req.q,
    threshold: DEFAULT_SIMILARITY_THRESHOLD,
    limit: LEGACY_PAGE,
    priceMin: req.price_min,
    priceMax: req.price_max,
  });
  const ids = ranked.map((r) => r.productId);
  const rows = await queryRows<{ id: number; raw: RawRecord; description: string }>(
    db,
    sql`SELECT id::float8 AS id, raw, description FROM products WHERE id = ANY(${bigintArray(ids)})`,
  );
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  const results = ids
    .map((id) => byId.get(id))
    .filter((r) => r !== undefined)
    .map((r) => toLegacyProduct(r.raw, r.description));
  return {
    results,
    code: results.length > 0 ? ('SEARCH_SUCCESS' as const) : ('NO_RESULTS_FOUND' as const),
  };
}
