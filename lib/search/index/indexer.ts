import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/client';
import { maintainSearchTables } from '../../db/statistics';
import { textEmbedder } from '../../embeddings/index';
import { reembedStyles } from '../../profiles/service';
import { indexLexical, type IndexableProduct } from './lexical-index';
import {
  dropOtherVectorIndexes,
  ensureVectorIndex,
  vectorIndexExists,
  vectorIndexName,
} from '../../embeddings/vector-index';
import { ofProducts, type ProductKey } from '../../sql/product-keys';
import { TextVectorPipeline } from './vector-pipeline';

export interface IndexOptions {
  /** Called after each batch with the number of products done so far and the total. */
  onProgress?: (done: number, total: number) => void;
}

export interface IndexResult {
  /** Inputs that went through the embedding model. */
  embedded: number;
  /** Products whose vector was kept (unchanged input) or came from embedding_cache. */
  reused: number;
}

/** Lexical work is cheap per product and pays per statement. */
const LEXICAL_BATCH = 1000;

async function loadProducts(db: Db, keys: ProductKey[]): Promise<IndexableProduct[]> {
  const rows = await queryRows<{
    id: string | number;
    store_id: string;
    title: string;
    product_type: string;
    vendor: string;
    tags: string[];
    description: string;
  }>(
    db,
    sql`SELECT id, store_id, title, product_type, vendor, tags, description
        FROM products WHERE ${ofProducts(keys, { idColumn: 'id' })} ORDER BY id`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    storeId: r.store_id,
    title: r.title,
    productType: r.product_type,
    vendor: r.vendor,
    tags: r.tags ?? [],
    description: r.description,
  }));
}

/** The lexical half of indexing: postings and BM25 statistics. Returns the products it read. */
export async function indexLexically(db: Db, keys: ProductKey[]): Promise<IndexableProduct[]> {
  const items = await loadProducts(db, keys);
  await indexLexical(db, items);
  return items;
}

/** The active text model's HNSW index, built when its first vectors are in. */
export function ensureTextVectorIndex(db: Db): Promise<void> {
  const provider = textEmbedder();
  return ensureVectorIndex(db, 'text', provider.modelId, provider.dimensions);
}

/** Drops the active text model's HNSW index: a bulk load builds it again once at its end. */
export async function dropTextVectorIndex(db: Db): Promise<void> {
  await db.execute(
    sql.raw(`DROP INDEX IF EXISTS ${vectorIndexName('text', textEmbedder().modelId)}`),
  );
}

/** Whether the active text model's HNSW index exists. */
export function textVectorIndexExists(db: Db): Promise<boolean> {
  return vectorIndexExists(db, 'text', textEmbedder().modelId);
}

/**
 * Makes products searchable: postings and BM25 statistics, and the text embedding for the active
 * model (cached by input). Call it after every upsert batch; products that no longer exist are
 * ignored. Safe to call again: unchanged inputs cost no embedding.
 */
export async function indexProducts(
  db: Db,
  keys: ProductKey[],
  opts: IndexOptions = {},
): Promise<IndexResult> {
  const unique = [...new Map(keys.map((k) => [k.productId, k])).values()];
  const total = unique.length;
  const result: IndexResult = { embedded: 0, reused: 0 };
  let done = 0;
  const vectors = new TextVectorPipeline(db, (batch) => {
    result.embedded += batch.embedded;
    result.reused += batch.reused;
    done += batch.items.length;
    opts.onProgress?.(done, total);
  });
  try {
    for (let start = 0; start < unique.length; start += LEXICAL_BATCH) {
      await vectors.add(await indexLexically(db, unique.slice(start, start + LEXICAL_BATCH)));
    }
    await vectors.drain();
  } finally {
    await vectors.settle();
  }
  if (total > 0) {
    await ensureTextVectorIndex(db);
    // Ids that no longer exist were skipped: the work is done all the same.
    opts.onProgress?.(total, total);
  }
  return result;
}

/**
 * After a model change: embeds every product and every profile's style for the active model and
 * removes the vectors and indexes of other models, so search never compares vectors from two
 * models.
 */
export async function reindexAll(
  db: Db,
  opts: IndexOptions = {},
): Promise<IndexResult & { styles: number }> {
  const provider = textEmbedder();
  await db.execute(
    sql`DELETE FROM product_embeddings WHERE kind = 'text' AND model_id <> ${provider.modelId}`,
  );
  await dropOtherVectorIndexes(db, 'text', provider.modelId);
  const rows = await queryRows<{ id: string | number; store_id: string }>(
    db,
    sql`SELECT id, store_id FROM products ORDER BY id`,
  );
  const result = await indexProducts(
    db,
    rows.map((r) => ({ storeId: r.store_id, productId: Number(r.id) })),
    opts,
  );
  // Every product's postings and vector were written anew.
  await maintainSearchTables(db, rows.length);
  return { ...result, styles: await reembedStyles(db, provider) };
}
