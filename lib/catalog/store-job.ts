import { and, eq, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { stores, syncErrors } from '../db/schema';
import { ApiError } from '../errors';
import { logger } from '../log/logger';
import { findStoreById } from '../stores/access';
import type { SyncProgress } from '../contract/admin-stores';

export function emptyProgress(): SyncProgress {
  return {
    pages: 0,
    seen: 0,
    added: 0,
    changed: 0,
    unchanged: 0,
    removed: 0,
    failed: 0,
    embedded: 0,
  };
}

/**
 * A running job writes its progress at least this often; a `running` state older than this is
 * a job whose process died, and may be taken over.
 */
const STALE_AFTER = '10 minutes';

/**
 * Marks the store as syncing, one job per store across every process sharing the database
 * (the server and the CLI): the conditional UPDATE is the lock. Clears the previous run's
 * errors. Throws STORE_NOT_FOUND or SYNC_RUNNING.
 */
export async function claimStore(db: Db, storeId: string): Promise<void> {
  const claimed = await db
    .update(stores)
    .set({
      syncState: 'running',
      syncStartedAt: sql`now()`,
      syncFinishedAt: null,
      syncLastError: null,
      syncProgress: emptyProgress(),
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(stores.id, storeId),
        or(
          ne(stores.syncState, 'running'),
          lt(stores.updatedAt, sql`now() - ${STALE_AFTER}::interval`),
        ),
      ),
    )
    .returning({ id: stores.id });
  if (claimed.length === 0) {
    if (!(await findStoreById(db, storeId))) {
      throw new ApiError('STORE_NOT_FOUND', `No store with id ${storeId}`);
    }
    throw new ApiError(
      'SYNC_RUNNING',
      `Store ${storeId} is already being synced; wait for it to finish`,
    );
  }
  await db.delete(syncErrors).where(eq(syncErrors.storeId, storeId));
}

export async function saveProgress(db: Db, storeId: string, progress: SyncProgress): Promise<void> {
  await db
    .update(stores)
    .set({
      syncProgress: { ...progress },
      updatedAt: sql`now()`,
    })
    .where(eq(stores.id, storeId));
}

export async function finishStore(
  db: Db,
  storeId: string,
  progress: SyncProgress,
  error: string | null,
  state: 'succeeded' | 'failed' | 'interrupted' = error ? 'failed' : 'succeeded',
): Promise<void> {
  await db
    .update(stores)
    .set({
      syncState: state,
      syncFinishedAt: sql`now()`,
      syncProgress: { ...progress },
      syncLastError: error,
      updatedAt: sql`now()`,
    })
    .where(eq(stores.id, storeId));
}

export async function recordSyncErrors(
  db: Db,
  storeId: string,
  errors: Array<{ externalId: string | null; message: string }>,
): Promise<void> {
  if (errors.length === 0) return;
  await db
    .insert(syncErrors)
    .values(
      errors.map((e) => ({ storeId, externalId: e.externalId, message: e.message.slice(0, 1000) })),
    );
}

export async function listSyncErrors(db: Db, storeId: string, limit = 1000) {
  const rows = await db
    .select()
    .from(syncErrors)
    .where(eq(syncErrors.storeId, storeId))
    .orderBy(syncErrors.id)
    .limit(limit);
  return rows.map((r) => ({
    external_id: r.externalId,
    message: r.message,
    created_at: r.createdAt.toISOString(),
  }));
}

/** A job stopped on request; what it wrote before stays, and the next sync runs whole. */
export class SyncInterrupted extends Error {
  constructor(readonly progress: SyncProgress) {
    super('interrupted before its end; what it wrote is kept, and the next sync runs whole');
  }
}

export interface JobOutcome {
  state: 'succeeded' | 'failed' | 'interrupted';
  progress: SyncProgress;
  error: string | null;
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
    if (err instanceof SyncInterrupted) {
      const error = `Sync ${err.message}`;
      await finishStore(db, storeId, err.progress, error, 'interrupted');
      return { state: 'interrupted', progress: err.progress, error };
    }
    const error = (err as Error)?.message ?? String(err);
    logger().warn({ storeId, err }, 'catalogue job failed');
    await finishStore(db, storeId, progress, error).catch(() => undefined);
    return { state: 'failed', progress, error };
  }
}
