import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pLimit from 'p-limit';
import type { Db } from '../db/client';
import { queryRows } from '../db/client';
import { ApiError } from '../errors';
import { logger } from '../log/logger';
import { dropOtherVectorIndexes, ensureVectorIndex } from '../search/vector-index';
import { bigintArray } from '../search/sql-arrays';
import { imageEmbedder, type ImageEmbedder } from './embedder';
import { fetchImage } from './fetch';
import { vectorLiteral } from '../db/vector';

export interface ImageIndexOptions {
  /** Defaults to the process's image model (IMAGE_EMBEDDING_MODEL). */
  embedder?: ImageEmbedder;
  /** Parallel downloads; embedding itself runs one image at a time (it is CPU-bound). */
  concurrency?: number;
  /** Fetch and embed even images whose URL and model are unchanged. */
  refetch?: boolean;
  onProgress?: (done: number, total: number) => void;
}

export interface ImageIndexFailure {
  productId: number;
  url: string;
  /** Why, in words (the fetch refusal or the decoder's complaint). */
  error: string;
}

export interface ImageIndexResult {
  embedded: number;
  /** Image URL and model unchanged since the last run: nothing fetched. */
  unchanged: number;
  /** Products without any image (a stale image vector of theirs is removed). */
  withoutImage: number;
  failed: ImageIndexFailure[];
}

/** products.images holds src URLs in platform order; older rows may hold Shopify image objects. */
function firstImageUrl(images: unknown): string | undefined {
  if (!Array.isArray(images)) return undefined;
  for (const image of images) {
    const src = typeof image === 'string' ? image : (image as { src?: unknown } | null)?.src;
    if (typeof src === 'string' && src.trim()) return src.trim();
  }
  return undefined;
}

function urlHash(url: string): string {
  return createHash('sha256').update(url).digest('hex');
}

/**
 * Embeds each product's first image with the image model, stored as product_embeddings
 * kind='image' under the model id. Incremental: the stored input hash is the image URL's, so a
 * product whose image URL and model are unchanged is skipped without a fetch (Shopify versions
 * its CDN URLs, so new pixels mean a new URL). One image failing (unreachable, refused, not an
 * image) is recorded in the result and the log, and never stops the others.
 */
export async function indexProductImages(
  db: Db,
  productIds: number[],
  opts: ImageIndexOptions = {},
): Promise<ImageIndexResult> {
  const embedder = opts.embedder ?? (await imageEmbedder());
  const ids = [...new Set(productIds)];
  const result: ImageIndexResult = { embedded: 0, unchanged: 0, withoutImage: 0, failed: [] };
  if (ids.length === 0) return result;

  const rows = await queryRows<{
    id: string | number;
    store_id: string;
    images: unknown;
    input_hash: string | null;
  }>(
    db,
    sql`SELECT p.id, p.store_id, p.images, pe.input_hash
        FROM products p
        LEFT JOIN product_embeddings pe
          ON pe.store_id = p.store_id AND pe.product_id = p.id AND pe.kind = 'image' AND pe.model_id = ${embedder.modelId}
        WHERE p.id = ANY(${bigintArray(ids)})
        ORDER BY p.id`,
  );
  const work: { productId: number; storeId: string; url: string; hash: string }[] = [];
  const imageless: number[] = [];
  for (const row of rows) {
    const productId = Number(row.id);
    const url = firstImageUrl(row.images);
    if (!url) {
      imageless.push(productId);
      continue;
    }
    const hash = urlHash(url);
    if (row.input_hash === hash && !opts.refetch) result.unchanged++;
    else work.push({ productId, storeId: row.store_id, url, hash });
  }
  result.withoutImage = imageless.length;
  if (imageless.length > 0) {
    await db.execute(
      sql`DELETE FROM product_embeddings WHERE kind = 'image' AND model_id = ${embedder.modelId}
          AND product_id = ANY(${bigintArray(imageless)})`,
    );
  }

  const downloads = pLimit(opts.concurrency ?? 4);
  const embedding = pLimit(1);
  let done = 0;
  let dimensions = 0;
  await Promise.all(
    work.map((item) =>
      downloads(async () => {
        try {
          const image = await fetchImage(item.url, { field: 'products.images[0]' });
          const [vector] = await embedding(() => embedder.embedImages([image.bytes]));
          dimensions = vector!.length;
          await db.execute(
            sql`INSERT INTO product_embeddings
                  (store_id, product_id, kind, model_id, input_hash, embedding)
                VALUES (${item.storeId}, ${item.productId}, 'image', ${embedder.modelId}, ${item.hash},
                        ${vectorLiteral(vector!)}::vector)
                ON CONFLICT (store_id, product_id, kind, model_id)
                DO UPDATE SET input_hash = excluded.input_hash, embedding = excluded.embedding,
                              created_at = excluded.created_at`,
          );
          result.embedded++;
        } catch (err) {
          const error =
            err instanceof ApiError
              ? `${err.message} (${err.details ?? ''})`
              : err instanceof Error
                ? err.message
                : String(err);
          result.failed.push({ productId: item.productId, url: item.url, error });
        } finally {
          opts.onProgress?.(++done, work.length);
        }
      }),
    ),
  );
  // One line per batch, not per image: a catalogue whose image host is unreachable or refused
  // would otherwise log a warning for every product.
  if (result.failed.length > 0) {
    logger().warn(
      { failed: result.failed.length, of: work.length, first: result.failed[0] },
      'product images not indexed',
    );
  }
  if (dimensions > 0) await ensureVectorIndex(db, 'image', embedder.modelId, dimensions);
  return result;
}

/** Products (of one store, or all) with an image but no vector from the image model. */
async function productsWithoutImageVector(
  db: Db,
  modelId: string,
  storeId?: string,
): Promise<number[]> {
  const rows = await queryRows<{ id: string | number }>(
    db,
    sql`SELECT p.id FROM products p
        WHERE ${storeId === undefined ? sql`true` : sql`p.store_id = ${storeId}`}
          AND jsonb_array_length(p.images) > 0
          AND NOT EXISTS (SELECT 1 FROM product_embeddings pe
                          WHERE pe.store_id = p.store_id AND pe.product_id = p.id
                            AND pe.kind = 'image' AND pe.model_id = ${modelId})
        ORDER BY p.id`,
  );
  return rows.map((r) => Number(r.id));
}

/**
 * Embeds the images of the store's products that have an image but no vector for the image
 * model, apart from `skip` (products whose image was just tried): images that failed at an
 * earlier sync (a host down, a fetch refused) are tried again at every sync until they work.
 */
export async function retryMissingImages(
  db: Db,
  storeId: string,
  skip: ReadonlySet<number>,
): Promise<ImageIndexResult> {
  const embedder = await imageEmbedder();
  const ids = (await productsWithoutImageVector(db, embedder.modelId, storeId)).filter(
    (id) => !skip.has(id),
  );
  const result = await indexProductImages(db, ids, { embedder });
  if (ids.length > 0) {
    logger().info(
      {
        store: storeId,
        retried: ids.length,
        embedded: result.embedded,
        failed: result.failed.length,
      },
      'product images retried',
    );
  }
  return result;
}

/**
 * `npm run cli -- images reindex`: embeds, for the active image model, the images of every
 * product without a vector (failed fetches, a model change), or with `all` every product's
 * image again (fetched anew). Other image models' vectors and indexes are dropped, so search
 * never compares vectors of two models.
 */
export async function reindexImages(
  db: Db,
  opts: { storeId?: string; all?: boolean; onProgress?: ImageIndexOptions['onProgress'] } = {},
): Promise<ImageIndexResult & { products: number; modelId: string }> {
  const embedder = await imageEmbedder();
  await db.execute(
    sql`DELETE FROM product_embeddings WHERE kind = 'image' AND model_id <> ${embedder.modelId}`,
  );
  await dropOtherVectorIndexes(db, 'image', embedder.modelId);
  const ids = opts.all
    ? (
        await queryRows<{ id: string | number }>(
          db,
          sql`SELECT id FROM products
              WHERE ${opts.storeId === undefined ? sql`true` : sql`store_id = ${opts.storeId}`}
              ORDER BY id`,
        )
      ).map((r) => Number(r.id))
    : await productsWithoutImageVector(db, embedder.modelId, opts.storeId);
  const result = await indexProductImages(db, ids, {
    embedder,
    refetch: opts.all,
    onProgress: opts.onProgress,
  });
  return { ...result, products: ids.length, modelId: embedder.modelId };
}
