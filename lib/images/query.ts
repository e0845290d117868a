import { and, eq, gt } from 'drizzle-orm';
import { env } from '../config/env';
import type { Db } from '../db/client';
import { imageCache } from '../db/schema';
import { imageEmbedder } from './embedder';
import { fetchImage, type FetchImageOptions } from './fetch';

export interface QueryImageEmbedding {
  modelId: string;
  vector: number[];
}

/** Concurrent requests for the same URL share one fetch and one embedding. */
const inFlight = new Map<string, Promise<QueryImageEmbedding>>();

async function embedFresh(
  db: Db,
  url: string,
  fetchOptions: FetchImageOptions,
): Promise<QueryImageEmbedding> {
  const embedder = await imageEmbedder();
  const modelId = embedder.modelId;
  const ttlMs = env().IMAGE_CACHE_TTL_HOURS * 3_600_000;
  const [cached] = await db
    .select({ embedding: imageCache.embedding })
    .from(imageCache)
    .where(
      and(
        eq(imageCache.url, url),
        eq(imageCache.modelId, modelId),
        gt(imageCache.fetchedAt, new Date(Date.now() - ttlMs)),
      ),
    )
    .limit(1);
  if (cached) return { modelId, vector: cached.embedding };

  const image = await fetchImage(url, { field: 'query.image_url', ...fetchOptions });
  // The same picture under another URL (CDN variants, re-uploads) is embedded only once.
  const [same] = await db
    .select({ embedding: imageCache.embedding })
    .from(imageCache)
    .where(and(eq(imageCache.contentHash, image.contentHash), eq(imageCache.modelId, modelId)))
    .limit(1);
  const vector = same?.embedding ?? (await embedder.embedImages([image.bytes]))[0]!;
  const row = {
    url,
    modelId,
    contentHash: image.contentHash,
    embedding: vector,
    fetchedAt: new Date(),
  };
  await db
    .insert(imageCache)
    .values(row)
    .onConflictDoUpdate({
      target: [imageCache.url, imageCache.modelId],
      set: { contentHash: row.contentHash, embedding: row.embedding, fetchedAt: row.fetchedAt },
    });
  return { modelId, vector };
}

/**
 * The active image model's vector for a query image URL. Fetched safely (see fetchImage), and
 * cached in image_cache by URL for IMAGE_CACHE_TTL_HOURS (default 24): long enough that a
 * repeated or paginated query neither fetches nor embeds again, short enough that an image
 * replaced at the same URL is picked up within a day. Past the TTL the URL is fetched again, and
 * unchanged content (same sha256) reuses its stored vector instead of being embedded again.
 * Refusals are INVALID_REQUEST ApiErrors naming `query.image_url`.
 */
export function embedQueryImage(
  db: Db,
  url: string,
  /** Overrides of the IMAGE_FETCH_* settings (the bench's loopback image server). */
  fetchOptions: Pick<FetchImageOptions, 'allowHosts' | 'timeoutMs'> = {},
): Promise<QueryImageEmbedding> {
  let pending = inFlight.get(url);
  if (!pending) {
    pending = embedFresh(db, url, fetchOptions).finally(() => inFlight.delete(url));
    inFlight.set(url, pending);
  }
  return pending;
}
