import type { Db } from '../db/client';
import { logger } from '../log/logger';
import {
  normalizeBaseUrl,
  requireStore,
  setStoreBaseUrl,
  type SyncProgress,
} from '../stores/registry';
import { ingestPages, type ProgressListener } from './ingest';
import { fetchProductPages, type FeedOptions } from './products-feed';
import { claimStore, emptyProgress, finishStore } from './store-job';

export interface JobOutcome {
  state: 'succeeded' | 'failed';
  progress: SyncProgress;
  error: string | null;
}

export interface SyncOptions {
  /** Saved as the store's base_url first; null resets it to https://{domain}. */
  baseUrl?: string | null;
  onProgress?: ProgressListener;
  feed?: FeedOptions;
}

/**
 * Runs a claimed job to its end state. Whatever goes wrong is recorded on the store
 * (sync_state failed, last_error) and returned, never thrown: a background sync has no caller
 * left to catch it.
 */
export async function runClaimedJob(
  db: Db,
  storeId: string,
  work: (latest: (p: SyncProgress) => void) => Promise<SyncProgress>,
): Promise<JobOutcome> {
  let progress = emptyProgress();
  try {
    progress = await work((p) => (progress = { ...p }));
    await finishStore(db, storeId, progress, null);
    return { state: 'succeeded', progress, error: null };
  } catch (err) {
    const error = (err as Error)?.message ?? String(err);
    logger().warn({ storeId, err_msg: error.slice(0, 300) }, 'catalogue job failed');
    await finishStore(db, storeId, progress, error).catch(() => undefined);
    return { state: 'failed', progress, error };
  }
}

/**
 * Starts a full sync of the store from `{base_url}/products.json`: claims the store (throws
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
    return ingestPages(db, storeId, fetchProductPages(baseUrl, opts.feed), {
      removeVanished: true,
      onProgress: (p) => {
        latest(p);
        opts.onProgress?.(p);
      },
    });
  });
  return { done };
}
