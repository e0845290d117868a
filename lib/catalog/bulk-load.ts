import pLimit from 'p-limit';
import type { Db } from '../db/client';
import { engineOf } from '../db/engine';
import { maintainSearchTables } from '../db/statistics';
import { logger } from '../log/logger';
import {
  dropTextVectorIndex,
  ensureTextVectorIndex,
  textVectorIndexExists,
} from '../search/index/indexer';
import { emptyProgress, type JobOutcome } from './store-job';
import { startSync } from './sync';

export interface BulkLoadResult<T> {
  result: T;
  /** Whether an index was dropped at the start (the catalogue was searchable by HNSW before). */
  droppedIndex: boolean;
  /** Seconds the postings' vacuum and the planner's statistics took at the end. */
  maintenanceSeconds: number;
  /** Seconds the text vector index took to build at the end. */
  indexBuildSeconds: number;
}

const secondsSince = (started: number) => Math.round((performance.now() - started) / 100) / 10;

/** What each sync of a load leaves to its end: the tables' upkeep, then the index. */
async function finishLoad(db: Db) {
  let started = performance.now();
  // The drift between the products the planner counted and those now indexed decides.
  await maintainSearchTables(db, 0);
  const maintenanceSeconds = secondsSince(started);
  started = performance.now();
  await ensureTextVectorIndex(db);
  return { maintenanceSeconds, indexBuildSeconds: secondsSince(started) };
}

/**
 * Runs a load of many stores (`load`, whose syncs pass inBulkLoad) with the text model's HNSW
 * index out of the way, and at its end, also when it fails, vacuums the postings, refreshes the
 * planner's statistics and builds the index, once each. Inserting vectors one at a time into the
 * graph was 75 to 80 % of a cached sync's work on both engines, a build of the same vectors a
 * fraction of it, and each small store's own vacuum and statistics nearly half of what was left
 * (docs/bench-log.md#ingest). Meanwhile searches compare vectors exactly: right for a first load,
 * slow for a large catalogue already serving, whose few new stores are better synced one by one.
 */
export async function loadInBulk<T>(db: Db, load: () => Promise<T>): Promise<BulkLoadResult<T>> {
  const droppedIndex = await textVectorIndexExists(db);
  if (droppedIndex) {
    logger().warn(
      'bulk load: the text vector index is dropped until the load ends; searches compare vectors exactly meanwhile',
    );
    await dropTextVectorIndex(db);
  }
  let result: T;
  try {
    result = await load();
  } catch (err) {
    // What was written so far is indexed all the same; the load's error is the one reported.
    await finishLoad(db).catch((finishErr: unknown) =>
      logger().warn(
        { err: finishErr },
        'bulk load: text vector index not built; the next sync builds it',
      ),
    );
    throw err;
  }
  return { result, droppedIndex, ...(await finishLoad(db)) };
}

export interface BulkSyncOptions {
  /** Stores synced at once on a server (syncConcurrency); 2 by default. */
  concurrency?: number;
  /** After each store's sync, with the stores done so far. */
  onStoreDone?: (storeId: string, outcome: JobOutcome, done: number) => void;
  /** Asks the load to stop: no further store starts, and those running stop after their page. */
  signal?: AbortSignal;
}

/**
 * How many stores a load syncs at once. On a server, the number asked: a sync waits on the
 * database and on the store in turn, so two at once kept both cores busy where one left each idle
 * half the time (1,000 stores of 55 cached products: 79.8 s one at a time, 50.7 s two at a time,
 * docs/bench-log.md#ingest). On PGlite, one: it runs one statement at a time on one session, which
 * a second sync's transactions would share with the first's over its socket.
 */
export async function syncConcurrency(db: Db, requested = 2): Promise<number> {
  return (await engineOf(db)).pglite ? 1 : Math.max(1, requested);
}

/**
 * Syncs many stores as one load (loadInBulk): each from its products.json, up to `concurrency`
 * at a time. A store whose sync fails (recorded on the store, as any sync's failure is) or does
 * not start does not stop the others; the outcomes come back in the order of `storeIds`, a store
 * never started (after the signal) without one.
 */
export async function syncStoresInBulk(
  db: Db,
  storeIds: readonly string[],
  opts: BulkSyncOptions = {},
): Promise<BulkLoadResult<Array<{ storeId: string; outcome?: JobOutcome }>>> {
  const limit = pLimit(await syncConcurrency(db, opts.concurrency));
  let done = 0;
  return loadInBulk(db, () =>
    Promise.all(
      storeIds.map((storeId) =>
        limit(async () => {
          if (opts.signal?.aborted) return { storeId };
          const outcome = await startSync(db, storeId, { inBulkLoad: true, signal: opts.signal })
            .then((sync) => sync.done)
            // Not started (an unknown store, one already syncing): the others go on.
            .catch((err: unknown): JobOutcome => ({
              state: 'failed',
              progress: emptyProgress(),
              error: err instanceof Error ? err.message : String(err),
            }));
          opts.onStoreDone?.(storeId, outcome, ++done);
          return { storeId, outcome };
        }),
      ),
    ),
  );
}
