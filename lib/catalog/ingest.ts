import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { products } from '../db/schema';
import { maintainSearchTables } from '../db/statistics';
import { queueImages, wakeImageQueues } from '../images/queue';
import { logger } from '../log/logger';
import {
  ensureTextVectorIndex,
  indexLexically,
  textVectorIndexExists,
} from '../search/index/indexer';
import { TextVectorPipeline } from '../search/index/vector-pipeline';
import { unindexLexical } from '../search/index/lexical-index';
import { touchStoreVectors } from '../search/index/store-vectors-version';
import { bigintArray } from '../sql/arrays';
import type { SyncProgress } from '../contract/admin-stores';
import {
  BadRecordError,
  isListed,
  normalizeProduct,
  recordId,
  type NormalizedProduct,
} from './normalize';
import { emptyProgress, recordSyncErrors, saveProgress, SyncInterrupted } from './store-job';
import { upsertProducts } from './upsert';

export type ProgressListener = (progress: Readonly<SyncProgress>) => void;

export interface IngestOptions {
  /** A full listing of the store (sync): products it no longer lists are deleted at the end. */
  removeVanished: boolean;
  onProgress?: ProgressListener;
  /**
   * Asks the job to stop (Ctrl-C in the CLI): no further page is fetched, the pages in hand are
   * finished (their products written and embedded), vanished products are not removed (the
   * listing was not seen whole), and the job ends with a SyncInterrupted.
   */
  signal?: AbortSignal;
  /**
   * Part of a load of many stores (bulk-load.ts), which builds the text vector index and
   * maintains the search tables once at its end: this ingest does neither.
   */
  inBulkLoad?: boolean;
}

/** Progress is written to the store row at most this often while embedding. */
const SAVE_INTERVAL_MS = 1000;

/**
 * Deletes the store's products missing from `keep`, first taking them out of the lexical index
 * (its global statistics count them); their other search rows cascade. An empty listing is
 * taken as a broken feed rather than a store that sold everything: nothing is removed.
 */
async function removeVanished(db: Db, storeId: string, keep: Set<string>): Promise<number> {
  if (keep.size === 0) {
    logger().warn({ storeId }, 'the store listed no products; keeping the existing catalogue');
    return 0;
  }
  // One jsonb parameter, not one per id: a store may list more ids than a statement may bind.
  const removed = await db.transaction(async (tx) => {
    const gone = await tx
      .select({ id: products.id })
      .from(products)
      .where(
        and(
          eq(products.storeId, storeId),
          sql`${products.externalId} NOT IN (SELECT jsonb_array_elements_text(${JSON.stringify([...keep])}::jsonb))`,
        ),
      );
    const ids = gone.map((g) => g.id);
    await unindexLexical(tx, storeId, ids);
    if (ids.length > 0) {
      await tx
        .delete(products)
        .where(and(eq(products.storeId, storeId), sql`${products.id} = ANY(${bigintArray(ids)})`));
    }
    return ids.length;
  });
  // Their vectors went with them.
  if (removed > 0) await touchStoreVectors(db, [storeId]);
  return removed;
}

/**
 * The one ingestion path for sync and file import: each page of raw Shopify records is
 * normalized (bad records skipped and recorded, never fatal), upserted, and its new or changed
 * products indexed. Progress goes to the listener and the store row after every step.
 */
export async function ingestPages(
  db: Db,
  storeId: string,
  pages: AsyncIterable<unknown[]> | Iterable<unknown[]>,
  opts: IngestOptions,
): Promise<SyncProgress> {
  const progress = emptyProgress();
  const seen = new Set<string>();
  let lastSave = 0;
  // Saves are chained so a late throttled save can never overwrite a newer one.
  let saving = Promise.resolve();
  const report = (force: boolean): Promise<void> => {
    opts.onProgress?.(progress);
    if (force || Date.now() - lastSave >= SAVE_INTERVAL_MS) {
      lastSave = Date.now();
      const snapshot = { ...progress };
      saving = saving.then(() => saveProgress(db, storeId, snapshot));
      // A failed save surfaces at the next awaited report, not as an unhandled rejection.
      saving.catch(() => undefined);
    }
    return saving;
  };

  // A first load (no HNSW index for the text model yet) builds the index once, after its
  // vectors are in: inserted one by one into an index, each cost the HNSW graph's search and
  // its neighbours' repair (about 7 ms of PGlite's CPU per product at 5,000 products, where a
  // build of the 5,000 took 1.5 to 1.9 ms each). Until then a search compares vectors exactly.
  const buildIndexAfter = !opts.inBulkLoad && !(await textVectorIndexExists(db));
  let wroteVectors = false;
  // Pages are embedded in the model's worker threads while this thread fetches, upserts and
  // lexically indexes the next ones, and writes the vectors of the batch before.
  const vectors = new TextVectorPipeline(db, async ({ items }) => {
    wroteVectors = true;
    if (!buildIndexAfter && !opts.inBulkLoad) await ensureTextVectorIndex(db);
    progress.embedded += items.length;
    // Their text is searchable now; images follow in the background (lib/images/queue.ts).
    await queueImages(
      db,
      items.map((p) => ({ storeId: p.storeId, productId: p.id })),
    );
    wakeImageQueues();
    await report(true);
  });
  try {
    for await (const page of pages) {
      if (opts.signal?.aborted) break;
      progress.pages++;
      const batch: NormalizedProduct[] = [];
      const errors: Array<{ externalId: string | null; message: string }> = [];
      for (const raw of page) {
        if (!isListed(raw)) continue;
        const id = recordId(raw);
        // A product that is now unreadable keeps its last good version rather than vanishing.
        if (id !== null) seen.add(id);
        try {
          batch.push(normalizeProduct(raw));
        } catch (err) {
          if (!(err instanceof BadRecordError)) throw err;
          errors.push({ externalId: err.externalId, message: err.message });
        }
      }
      progress.seen = seen.size;
      progress.failed += errors.length;
      await recordSyncErrors(db, storeId, errors);

      const upserted = await upsertProducts(db, storeId, batch);
      progress.added += upserted.added;
      progress.changed += upserted.changed;
      progress.unchanged += upserted.unchanged;
      await report(true);

      if (upserted.writtenIds.length > 0) {
        const written = [...new Set(upserted.writtenIds)].map((productId) => ({
          storeId,
          productId,
        }));
        await vectors.add(await indexLexically(db, written));
      }
    }
    await vectors.drain();
    if (buildIndexAfter && wroteVectors) await ensureTextVectorIndex(db);
  } catch (err) {
    // A failed page or feed ends the job only once no embedding still runs for it.
    await vectors.settle();
    // The vectors written so far get their index all the same; the page's error is the one
    // the job reports.
    if (buildIndexAfter && wroteVectors) {
      await ensureTextVectorIndex(db).catch((indexErr: unknown) =>
        logger().warn(
          { storeId, err: indexErr },
          'text vector index not built; the next sync builds it',
        ),
      );
    }
    throw err;
  }

  if (opts.signal?.aborted) throw new SyncInterrupted({ ...progress });
  if (opts.removeVanished) {
    progress.removed = await removeVanished(db, storeId, seen);
    await report(true);
  }
  const written = progress.added + progress.changed + progress.removed;
  if (written > 0 && !opts.inBulkLoad) await maintainSearchTables(db, written);
  return progress;
}
