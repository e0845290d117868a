import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pLimit from 'p-limit';
import type { Db } from '../db/client';
import { queryRows } from '../db/client';
import { env } from '../config/env';
import { ApiError } from '../errors';
import { logger } from '../log/logger';
import { dropOtherVectorIndexes, ensureVectorIndex } from '../embeddings/vector-index';
import { ofProducts, type ProductKey } from '../sql/product-keys';
import { bigintArray } from '../sql/arrays';
import { imageEmbedder, type ImageEmbedder } from './embedder';
import { vectorLiteral } from '../db/vector';
import { fetchImage, ImageHostUnreachable } from './fetch';

export interface ImageIndexOptions {
  /** Defaults to the process's image model (IMAGE_EMBEDDING_MODEL). */
  embedder?: ImageEmbedder;
  /** Parallel downloads; embedding itself runs one image at a time (it is CPU-bound). */
  concurrency?: number;
  /** Fetch and embed even images whose URL and model are unchanged. */
  refetch?: boolean;
  /**
   * The image queue's hold on these products (lib/images/queue.ts): their outcome is written only
   * where the hold is still theirs, so a sync that queued a product again meanwhile wins.
   */
  heldUntil?: Date;
  onProgress?: (done: number, total: number) => void;
}

export interface ImageIndexFailure {
  productId: number;
  url: string;
  /** Why, in words (the fetch refusal or the decoder's complaint). */
  error: string;
  /** host[:port], when the host could not be reached at all (no address, no answer). */
  unreachableHost?: string;
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

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

function urlHash(url: string): string {
  return createHash('sha256').update(url).digest('hex');
}

function describeFailure(err: unknown): string {
  if (err instanceof ApiError) return `${err.message} (${err.details ?? ''})`;
  return err instanceof Error ? err.message : String(err);
}

/** The wait before a product image that failed `attempts` times before is tried again. */
function retryDelayMs(attempts: number): number {
  const { IMAGE_RETRY_BASE_MS, IMAGE_RETRY_MAX_MS } = env();
  return Math.min(IMAGE_RETRY_MAX_MS, IMAGE_RETRY_BASE_MS * 2 ** Math.min(attempts, 30));
}

/**
 * Writes each product's image outcome to its queue columns: done (embedded, unchanged or no
 * image) leaves the queue; a failure is due again after a wait that doubles with each failure.
 * Failures are grouped by what their update sets, so a batch costs a few statements.
 */
async function recordOutcomes(
  db: Db,
  done: number[],
  failed: ImageIndexFailure[],
  /** Each failed product's failures before this one. */
  attemptsOf: ReadonlyMap<number, number>,
  heldUntil: Date | undefined,
): Promise<void> {
  const held = heldUntil ? sql`AND image_due_at = ${heldUntil.toISOString()}::timestamptz` : sql``;
  if (done.length > 0) {
    await db.execute(
      sql`UPDATE products SET image_due_at = NULL, image_attempts = 0, image_error = NULL,
            image_unreachable_host = NULL
          WHERE id = ANY(${bigintArray(done)}) ${held}`,
    );
  }
  const now = Date.now();
  const groups = new Map<
    string,
    { attempts: number; error: string; host: string | null; ids: number[] }
  >();
  for (const f of failed) {
    const host = f.unreachableHost ?? null;
    const attempts = attemptsOf.get(f.productId) ?? 0;
    const key = JSON.stringify([attempts, f.error, host]);
    const group = groups.get(key) ?? { attempts, error: f.error, host, ids: [] };
    group.ids.push(f.productId);
    groups.set(key, group);
  }
  for (const g of groups.values()) {
    const due = new Date(now + retryDelayMs(g.attempts)).toISOString();
    await db.execute(
      sql`UPDATE products SET image_due_at = ${due}::timestamptz, image_attempts = ${g.attempts + 1},
            image_error = ${g.error.slice(0, 1000)}, image_unreachable_host = ${g.host}
          WHERE id = ANY(${bigintArray(g.ids)}) ${held}`,
    );
  }
}

/**
 * Embeds each product's first image with the image model, stored as product_embeddings
 * kind='image' under the model id. Incremental: the stored input hash is the image URL's, so a
 * product whose image URL and model are unchanged is skipped without a fetch (Shopify versions
 * its CDN URLs, so new pixels mean a new URL). One image failing (unreachable, refused, not an
 * image) is recorded in the result, the log and the product's queue columns, and never stops
 * the others; once a host proves unreachable, its other images in the batch are not tried.
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
    image_attempts: number;
    input_hash: string | null;
  }>(
    db,
    sql`SELECT p.id, p.store_id, p.images, p.image_attempts, pe.input_hash
        FROM products p
        LEFT JOIN product_embeddings pe
          ON pe.store_id = p.store_id AND pe.product_id = p.id AND pe.kind = 'image' AND pe.model_id = ${embedder.modelId}
        WHERE p.id = ANY(${bigintArray(ids)})
        ORDER BY p.id`,
  );
  const work: { productId: number; storeId: string; url: string; hash: string }[] = [];
  const attemptsOf = new Map<number, number>();
  const imageless: ProductKey[] = [];
  const done: number[] = [];
  for (const row of rows) {
    const productId = Number(row.id);
    const url = firstImageUrl(row.images);
    if (!url) {
      imageless.push({ storeId: row.store_id, productId });
      continue;
    }
    const hash = urlHash(url);
    if (row.input_hash === hash && !opts.refetch) {
      result.unchanged++;
      done.push(productId);
    } else {
      work.push({ productId, storeId: row.store_id, url, hash });
      attemptsOf.set(productId, row.image_attempts);
    }
  }
  result.withoutImage = imageless.length;
  done.push(...imageless.map((k) => k.productId));
  if (imageless.length > 0) {
    await db.execute(
      sql`DELETE FROM product_embeddings WHERE kind = 'image' AND model_id = ${embedder.modelId}
          AND ${ofProducts(imageless)}`,
    );
  }

  const downloads = pLimit(opts.concurrency ?? 4);
  const embedding = pLimit(1);
  const downHosts = new Map<string, ImageHostUnreachable>();
  let finished = 0;
  let dimensions = 0;
  await Promise.all(
    work.map((item) =>
      downloads(async () => {
        try {
          const host = hostOf(item.url);
          const down = host === undefined ? undefined : downHosts.get(host);
          if (down) throw down;
          let image;
          try {
            image = await fetchImage(item.url, { field: 'products.images[0]' });
          } catch (err) {
            if (err instanceof ImageHostUnreachable && host !== undefined) downHosts.set(host, err);
            throw err;
          }
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
          done.push(item.productId);
        } catch (err) {
          result.failed.push({
            productId: item.productId,
            url: item.url,
            error: describeFailure(err),
            ...(err instanceof ImageHostUnreachable ? { unreachableHost: err.host } : {}),
          });
        } finally {
          opts.onProgress?.(++finished, work.length);
        }
      }),
    ),
  );
  await recordOutcomes(db, done, result.failed, attemptsOf, opts.heldUntil);
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
