import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/client';
import type { EmbeddingProvider } from '../../embeddings/provider';
import { cachedInputs, embedIntoCache, inputHash } from '../query/cached-embeddings';
import type { IndexableProduct } from './lexical-index';
import { ofProducts } from '../../sql/product-keys';
import { bigintArray, textArray } from '../../sql/arrays';
import { directionText, storedDirection } from '../../db/vector';
import { touchStoreVectors } from './store-vectors-version';

/** Descriptions are long and mostly boilerplate; their opening says what the product is. */
const DESCRIPTION_CHARS = 300;

/** What the text embedding of a product sees: what it is first, then how it is sold. */
export function embeddingInput(p: IndexableProduct): string {
  const parts = [p.title, p.productType, p.vendor, p.tags.join(', ')];
  const description = p.description.slice(0, DESCRIPTION_CHARS).trim();
  if (description) parts.push(description);
  return parts
    .map((s) => s.trim())
    .filter(Boolean)
    .join('. ');
}

/** A batch's text vectors, computed and not yet written to product_embeddings. */
export interface ProductVectors {
  modelId: string;
  /** The products whose input changed. */
  stale: Array<{ id: number; storeId: string; hash: string }>;
  /**
   * Their vectors in the same order: those the model computed now, null for the ones
   * embedding_cache holds (storeProductVectors copies those there, so that a cached vector never
   * travels to JavaScript and back: read as text, parsed, written as text, about a third of a
   * millisecond per product).
   */
  vectors: Array<number[] | null>;
  /** Inputs that went through the model. */
  embedded: number;
  /** Products whose vector was kept (unchanged input) or came from embedding_cache. */
  reused: number;
}

/**
 * Each product's text vector for the provider's model. Products whose input is unchanged keep
 * their vector; inputs seen before (any product, any run) come from embedding_cache (see
 * embedTextsCached); only the rest go through the model. Nothing is written to
 * product_embeddings: storeProductVectors does that, so that the model can compute the next
 * batch meanwhile.
 */
export async function computeProductVectors(
  db: Db,
  provider: EmbeddingProvider,
  items: IndexableProduct[],
): Promise<ProductVectors> {
  const modelId = provider.modelId;
  const none = { modelId, stale: [], vectors: [], embedded: 0, reused: items.length };
  if (items.length === 0) return none;
  const inputs = items.map((p) => {
    const text = embeddingInput(p);
    return { id: p.id, storeId: p.storeId, text, hash: inputHash(text) };
  });
  const keys = inputs.map((i) => ({ storeId: i.storeId, productId: i.id }));
  const current = await queryRows<{ product_id: string | number; input_hash: string }>(
    db,
    sql`SELECT product_id, input_hash FROM product_embeddings
        WHERE kind = 'text' AND model_id = ${modelId} AND ${ofProducts(keys)}`,
  );
  const currentHash = new Map(current.map((r) => [Number(r.product_id), r.input_hash]));
  const stale = inputs.filter((i) => currentHash.get(i.id) !== i.hash);
  if (stale.length === 0) return none;

  const cached = await cachedInputs(
    db,
    modelId,
    stale.map((i) => i.hash),
  );
  // Each input the cache lacks goes through the model once, however many products share it.
  const missing = [
    ...new Map(stale.filter((i) => !cached.has(i.hash)).map((i) => [i.hash, i.text])),
  ];
  const computed = await embedIntoCache(db, provider, missing);
  const vectorOf = new Map(missing.map(([hash], j) => [hash, computed[j]!]));
  return {
    modelId,
    stale: stale.map(({ id, storeId, hash }) => ({ id, storeId, hash })),
    vectors: stale.map((i) => vectorOf.get(i.hash) ?? null),
    embedded: missing.length,
    reused: items.length - missing.length,
  };
}

/**
 * Writes computed vectors (computeProductVectors) to product_embeddings, copied from
 * embedding_cache where it holds them, so that each vector's text is read once; the text
 * (directionText) of a vector the model computed is there in case the cache no longer holds it.
 * A vector that was cached (null in the batch) and no longer is fails the batch (the row's
 * embedding may not be null): nothing deletes from the cache. The statement commits on its own,
 * then the stores' vectors take a new version.
 */
export async function storeProductVectors(db: Db, batch: ProductVectors): Promise<void> {
  const { stale, vectors, modelId } = batch;
  if (stale.length === 0) return;
  // The model's vectors, once per input.
  const computed = new Map<string, string>();
  stale.forEach((item, i) => {
    const vector = vectors[i];
    if (vector && !computed.has(item.hash)) computed.set(item.hash, directionText(vector));
  });
  await db.execute(sql`
    INSERT INTO product_embeddings (store_id, product_id, kind, model_id, input_hash, embedding)
    SELECT u.store_id, u.id, 'text', ${modelId}, u.h, coalesce(c.embedding, ${storedDirection(sql.raw('n.v'))})
    FROM unnest(${textArray(stale.map((i) => i.storeId))}, ${bigintArray(stale.map((i) => i.id))},
                ${textArray(stale.map((i) => i.hash))}) AS u(store_id, id, h)
    LEFT JOIN embedding_cache c ON c.model_id = ${modelId} AND c.input_hash = u.h
    LEFT JOIN unnest(${textArray([...computed.keys()])}, ${textArray([...computed.values()])}) AS n(h, v)
      ON n.h = u.h
    ON CONFLICT (store_id, product_id, kind, model_id) DO UPDATE
      SET input_hash = excluded.input_hash, embedding = excluded.embedding,
          created_at = excluded.created_at`);
  await touchStoreVectors(
    db,
    stale.map((i) => i.storeId),
  );
}
