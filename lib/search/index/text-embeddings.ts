import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/client';
import type { EmbeddingProvider } from '../../embeddings/provider';
import { embedTextsCached, inputHash } from '../query/cached-embeddings';
import type { IndexableProduct } from './lexical-index';
import { ofProducts } from '../../sql/product-keys';
import { bigintArray, textArray } from '../../sql/arrays';
import { directionText, storedDirection } from '../../db/vector';

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
  /** The products whose input changed, and their new vectors in the same order. */
  stale: Array<{ id: number; storeId: string; hash: string }>;
  vectors: number[][];
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

  const { vectors, computed } = await embedTextsCached(
    db,
    provider,
    stale.map((i) => i.text),
  );
  return {
    modelId,
    stale: stale.map(({ id, storeId, hash }) => ({ id, storeId, hash })),
    vectors,
    embedded: computed,
    reused: items.length - computed,
  };
}

/**
 * Writes computed vectors (computeProductVectors) to product_embeddings, copied from
 * embedding_cache where it holds them (it does, unless emptied since), so that each vector's
 * text is read once; the text (directionText) is there for a vector the cache no longer holds.
 */
export async function storeProductVectors(db: Db, batch: ProductVectors): Promise<void> {
  const { stale, vectors, modelId } = batch;
  if (stale.length === 0) return;
  await db.execute(sql`
    INSERT INTO product_embeddings (store_id, product_id, kind, model_id, input_hash, embedding)
    SELECT u.store_id, u.id, 'text', ${modelId}, u.h, coalesce(c.embedding, ${storedDirection(sql.raw('u.v'))})
    FROM unnest(${textArray(stale.map((i) => i.storeId))}, ${bigintArray(stale.map((i) => i.id))},
                ${textArray(stale.map((i) => i.hash))},
                ${textArray(vectors.map(directionText))}) AS u(store_id, id, h, v)
    LEFT JOIN embedding_cache c ON c.model_id = ${modelId} AND c.input_hash = u.h
    ON CONFLICT (store_id, product_id, kind, model_id) DO UPDATE
      SET input_hash = excluded.input_hash, embedding = excluded.embedding,
          created_at = excluded.created_at`);
}
