import { timeStage } from '../../metrics/registry';
import { eq } from 'drizzle-orm';
import { planAtLeast, type Caller } from '../../auth/keys';
import {
  DEFAULT_QUERY_WEIGHT,
  DEFAULT_QUERY_WEIGHT_WITH_STYLE,
  DEFAULT_RESULT_COUNT,
  DEFAULT_STYLE_WEIGHT,
  type ParsedSearchProductsRequest,
} from '../../contract/search';
import type { ShippingRecord } from '../../contract/shipping';
import type { Db } from '../../db/client';
import { styles } from '../../db/schema';
import { textEmbedder } from '../../embeddings/index';
import { ApiError } from '../../errors';
import { embedQueryImage } from '../../images/query';
import { attachedShipping } from '../../profiles/service';
import { rankProducts } from '../rank/ranking';
import { searchScope } from './store-scope';
import { loadProducts, requireProfile, toResult } from './product-results';
import type { CandidateFilters, VectorQuery } from '../retrieve/request';

const IMAGE_PLAN = 'pro';

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

/** POST /search/products: resolve scope and profile, rank once, and shape the results. */
export async function searchProducts(db: Db, caller: Caller, req: ParsedSearchProductsRequest) {
  const scope = await searchScope(db, caller, req);
  let style: number[] | undefined;
  let shipping: ShippingRecord | undefined;
  if (req.profile_id !== undefined) {
    const profile = await requireProfile(db, caller, req.profile_id);
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
      query: req.query_weight ?? (style ? DEFAULT_QUERY_WEIGHT_WITH_STYLE : DEFAULT_QUERY_WEIGHT),
      style: req.style_weight ?? DEFAULT_STYLE_WEIGHT,
    },
    threshold: req.similarity_threshold,
    explain: req.explain,
    limit: req.max_result_count ?? req.result_count ?? DEFAULT_RESULT_COUNT,
    ...filters,
  });
  const rows = await timeStage('load_products', () => loadProducts(db, ranked, filters));
  const results = ranked.flatMap((r) => {
    const row = rows.get(r.productId);
    if (!row || row.variants.length === 0) return [];
    const result = toResult(row, shipping);
    return [r.details ? { ...result, score_details: r.details } : result];
  });
  return {
    results,
    product_ids: results.map((r) => r.id),
    code: results.length > 0 ? ('SEARCH_SUCCESS' as const) : ('NO_RESULTS_FOUND' as const),
  };
}
