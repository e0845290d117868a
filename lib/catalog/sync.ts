import type { Db } from '../db/client';
import { normalizeBaseUrl, requireStore, setStoreBaseUrl } from '../stores/registry';
import { ingestPages, type ProgressListener } from './ingest';
import { fetchProductPages, type FeedOptions } from './products-feed';
import { syncStock } from './stock';
import { syncStoreRules } from './store-rules-sync';
import { claimStore, runClaimedJob, type JobOutcome } from './store-job';

export interface SyncOptions {
  /** Saved as the store's base_url first; null resets it to https://{domain}. */
  baseUrl?: string | null;
  onProgress?: ProgressListener;
  feed?: FeedOptions;
  /** Stops the sync after the page in hand (see IngestOptions.signal). */
  signal?: AbortSignal;
  /** See IngestOptions.inBulkLoad. */
  inBulkLoad?: boolean;
}

/**
 * Starts a full sync of the store from `{base_url}/products.json`, then of its stock and its
 * checkout rules from the Admin API when it has a token (stock.ts, store-rules-sync.ts): claims the store (throws
 * STORE_NOT_FOUND or SYNC_RUNNING at once), then runs in the background of this process.
 * `done` settles when the sync has finished, successfully or not.
 */
export async function startSync(
  db: Db,
  storeId: string,
  opts: SyncOptions = {},
): Promise<{ done: Promise<JobOutcome> }> {
  // Validated before the claim, so bad input is refused at once and changes nothing.
  const override = opts.baseUrl === undefined ? undefined : normalizeBaseUrl(opts.baseUrl);
  await claimStore(db, storeId);
  const done = runClaimedJob(db, storeId, async (latest) => {
    if (override !== undefined) await setStoreBaseUrl(db, storeId, override);
    const store = await requireStore(db, storeId);
    const baseUrl = store.baseUrl ?? `https://${store.domain}`;
    const progress = await ingestPages(
      db,
      storeId,
      fetchProductPages(baseUrl, { ...opts.feed, signal: opts.signal }),
      {
        removeVanished: true,
        signal: opts.signal,
        inBulkLoad: opts.inBulkLoad,
        onProgress: (p) => {
          latest(p);
          opts.onProgress?.(p);
        },
      },
    );
    if (!opts.signal?.aborted) {
      await syncStock(db, store);
      await syncStoreRules(db, store);
    }
    return progress;
  });
  return { done };
}
