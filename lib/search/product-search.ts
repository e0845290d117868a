import { eq, sql } from 'drizzle-orm';
import { planAtLeast, type Caller } from '../auth/keys';
import {
  DEFAULT_RESULT_COUNT,
  type SearchProduct,
  type SearchProductsRequest,
} from '../contract/search';
import type { ShippingRecord } from '../contract/shipping';
import type { Db } from '../db/client';
import { queryRows } from '../db/client';
import { styles } from '../db/schema';
import { textEmbedder } from '../embeddings';
import { ApiError } from '../errors';
import { embedQueryImage } from '../images/query';
import { attachedShipping, findProfile } from '../profiles/service';
import { canAccessStore, closedStoreIds, findStoreByDomain, findStoreById } from '../stores/access';
import { checkoutUrl, checkoutUrlWithShipping } from './checkout';
import { rankProducts } from './engine';
import { oneStoreScope } from './lexical-index';
import type { CandidateFilters, SearchScope, VectorQuery } from './retrieve';
import { bigintArray, textArray } from './sql-arrays';

const IMAGE_PLAN = 'pro';

/**
 * Where to search: the store named by store_id or store_domain, or, when neither is given,
 * every store but those whose policy shuts the caller out.
 */
async function resolveScope(
  db: Db,
  caller: Caller,
  req: SearchProductsRequest,
): Promise<SearchScope> {
  if (req.store_id === undefined && req.store_domain === undefined) {
    return { excludeStoreIds: await closedStoreIds(db, caller.developerId) };
  }
  const store = req.store_id
    ? await findStoreById(db, req.store_id)
    : await findStoreByDomain(db, req.store_domain!);
  const name = req.store_id ? `id ${req.store_id}` : `domain ${req.store_domain}`;
  // A store closed to this developer is reported like a missing one: this operation has no
  // FORBIDDEN code, and its existence is none of the caller's business.
  if (!store || !(await canAccessStore(db, store, caller.developerId))) {
    throw new ApiError('STORE_NOT_FOUND', `No store with ${name}`, 404, `Unknown store ${name}`);
  }
  return oneStoreScope(db, store.id);
}

/** The style's vector, when it was embedded by the active text model (else it cannot compare). */
async function styleVector(db: Db, profileId: string): Promise<number[] | undefined> {
  const [row] = await db
    .select({ embedding: styles.embedding, model: styles.embeddingModel })
    .from(styles)
    .where(eq(styles.profileId, profileId));
  return row && row.model === textEmbedder().modelId ? row.embedding : undefined;
}

async function imageQuery(db: Db, caller: Caller, url: string): Promise<VectorQuery> {
  if (!planAtLeast(caller.plan, IMAGE_PLAN)) {
    throw new ApiError(
      'FORBIDDEN_FEATURE',
      `Image search needs the ${IMAGE_PLAN} plan or above; this key's plan is ${caller.plan}`,
      403,
      `query.image_url requires the ${IMAGE_PLAN} plan`,
    );
  }
  const { modelId, vector } = await embedQueryImage(db, url);
  return { modelId, dimensions: vector.length, vector };
}

interface ProductRow {
  id: number;
  store_id: string;
  store_name: string;
  store_domain: string;
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

/** The products with the variants that pass the same filters as the ranking. */
async function loadProducts(db: Db, ids: number[], filters: CandidateFilters) {
  const conditions = [sql`v.store_id = p.store_id`, sql`v.product_id = p.id`];
  if (filters.priceMin !== undefined) conditions.push(sql`v.price >= ${filters.priceMin}`);
  if (filters.priceMax !== undefined) conditions.push(sql`v.price <= ${filters.priceMax}`);
  if (filters.excludeVariantIds?.length) {
    conditions.push(sql`v.external_id <> ALL(${textArray(filters.excludeVariantIds)})`);
  }
  const rows = await queryRows<ProductRow>(
    db,
    sql`SELECT p.id::float8 AS id, p.store_id, s.name AS store_name, s.domain AS store_domain,
               p.external_id, p.title, p.handle, p.description,
               p.product_type, p.images, p.options,
               coalesce((SELECT json_agg(json_build_object(
                   'external_id', v.external_id, 'title', v.title, 'option1', v.option1,
                   'option2', v.option2, 'option3', v.option3, 'price', v.price::text,
                   'available', v.available) ORDER BY v.position, v.id)
                 FROM variants v WHERE ${sql.join(conditions, sql` AND `)}), '[]') AS variants
        FROM products p JOIN stores s ON s.id = p.store_id
        WHERE p.id = ANY(${bigintArray(ids)})`,
  );
  return new Map(rows.map((r) => [Number(r.id), r]));
}

function toVariantId(externalId: string): number {
  const n = Number(externalId);
  return Number.isSafeInteger(n) ? n : 0;
}

function toResult(row: ProductRow, shipping?: ShippingRecord): SearchProduct {
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
      id: toVariantId(v.external_id),
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
  };
}

/** POST /search/products: resolve scope and profile, rank once, and shape the results. */
export async function searchProducts(db: Db, caller: Caller, req: SearchProductsRequest) {
  const scope = await resolveScope(db, caller, req);
  let style: number[] | undefined;
  let shipping: ShippingRecord | undefined;
  if (req.profile_id !== undefined) {
    const profile = await findProfile(db, caller, req.profile_id);
    if (!profile) {
      throw new ApiError(
        'PROFILE_NOT_FOUND',
        `No profile with id ${req.profile_id}`,
        404,
        `Unknown profile_id ${req.profile_id}`,
      );
    }
    [style, shipping] = await Promise.all([
      styleVector(db, profile.id),
      attachedShipping(db, profile.id),
    ]);
  }
  const image = req.query.image_url ? await imageQuery(db, caller, req.query.image_url) : undefined;
  const filters: CandidateFilters = {
    priceMin: req.price_min,
    priceMax: req.price_max,
    excludeVariantIds: req.exclude_variant_ids,
  };
  const ranked = await rankProducts(db, {
    scope,
    text: req.query.text,
    image,
    style,
    weights: {
      query: req.query_weight ?? (style ? 0.7 : 1),
      style: req.style_weight ?? 0.3,
    },
    threshold: req.similarity_threshold,
    limit: req.max_result_count ?? req.result_count ?? DEFAULT_RESULT_COUNT,
    ...filters,
  });
  const rows = await loadProducts(
    db,
    ranked.map((r) => r.productId),
    filters,
  );
  const results = ranked.flatMap((r) => {
    const row = rows.get(r.productId);
    return row && row.variants.length > 0 ? [toResult(row, shipping)] : [];
  });
  return {
    results,
    product_ids: results.map((r) => r.id),
    code: results.length > 0 ? ('SEARCH_SUCCESS' as const) : ('NO_RESULTS_FOUND' as const),
  };
}
