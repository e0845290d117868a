import { sql } from 'drizzle-orm';
import { env } from '../config/env';
import type { Db } from '../db/client';
import { queryRows } from '../db/client';
import { logger } from '../log/logger';
import { ofProducts, type ProductKey } from '../sql/product-keys';
import { bigintArray } from '../sql/arrays';
import { imageEmbedder } from './embedder';
import { indexProductImages } from './indexer';

/**
 * Product images are embedded in the background, never inside a sync: an image host that is
 * slow, unresolvable or silent would otherwise hold the sync (and the text index) back. The
 * queue is the products table itself (image_due_at, see lib/db/schema.ts), so it survives
 * restarts, any process may work it, and the operator API can count what is pending.
 */

/** Products taken per pass. */
const BATCH = 50;

/**
 * Marks the images of products just written as to be (re)embedded now; the image queue takes
 * them. A product without an image leaves the queue at once, and loses any image vector.
 */
export async function queueImages(db: Db, keys: ProductKey[]): Promise<void> {
  if (keys.length === 0) return;
  const ofThese = ofProducts(keys, { idColumn: 'id' });
  await db.execute(
    sql`UPDATE products SET image_due_at = now(), image_attempts = 0, image_error = NULL,
          image_unreachable_host = NULL
        WHERE ${ofThese} AND jsonb_array_length(images) > 0`,
  );
  const imageless = await queryRows<{ id: string | number; store_id: string }>(
    db,
    sql`UPDATE products SET image_due_at = NULL, image_attempts = 0, image_error = NULL,
          image_unreachable_host = NULL
        WHERE ${ofThese} AND jsonb_array_length(images) = 0
        RETURNING id, store_id`,
  );
  if (imageless.length > 0) {
    const keys = imageless.map((r) => ({ storeId: r.store_id, productId: Number(r.id) }));
    await db.execute(
      sql`DELETE FROM product_embeddings WHERE kind = 'image' AND ${ofProducts(keys)}`,
    );
  }
}

/**
 * How long a taken batch is held before another worker (or this one after a crash) may take
 * it: every image of the batch timing out, one download slot after another, twice over.
 */
function holdMs(): number {
  const { IMAGE_FETCH_TIMEOUT_MS, IMAGE_QUEUE_CONCURRENCY } = env();
  return 2 * Math.ceil(BATCH / IMAGE_QUEUE_CONCURRENCY) * IMAGE_FETCH_TIMEOUT_MS;
}

/**
 * Takes up to BATCH due products (of one store, or any) by moving their due time to the end
 * of the hold: the conditional UPDATE makes two workers never take the same product.
 */
async function takeDue(db: Db, storeId?: string): Promise<{ ids: number[]; heldUntil: Date }> {
  const scope = storeId === undefined ? sql`` : sql`AND store_id = ${storeId}`;
  const due = await queryRows<{ id: string | number }>(
    db,
    sql`SELECT id FROM products WHERE image_due_at <= now() ${scope}
        ORDER BY image_due_at, id LIMIT ${BATCH}`,
  );
  const heldUntil = new Date(Date.now() + holdMs());
  if (due.length === 0) return { ids: [], heldUntil };
  const taken = await queryRows<{ id: string | number }>(
    db,
    sql`UPDATE products SET image_due_at = ${heldUntil.toISOString()}::timestamptz
        WHERE id = ANY(${bigintArray(due.map((r) => Number(r.id)))}) AND image_due_at <= now()
        RETURNING id`,
  );
  return { ids: taken.map((r) => Number(r.id)), heldUntil };
}

/** One pass: takes a batch of due images and embeds them. Returns how many it took. */
export async function runImageQueueOnce(db: Db, storeId?: string): Promise<number> {
  const { ids, heldUntil } = await takeDue(db, storeId);
  if (ids.length === 0) return 0;
  const result = await indexProductImages(db, ids, {
    embedder: await imageEmbedder(),
    concurrency: env().IMAGE_QUEUE_CONCURRENCY,
    heldUntil,
  });
  logger().info(
    {
      taken: ids.length,
      embedded: result.embedded,
      unchanged: result.unchanged,
      failed: result.failed.length,
    },
    'image queue pass',
  );
  return ids.length;
}

/** Embeds the store's due images now, until none is due (the demo store's, at start). */
export async function drainImageQueue(db: Db, storeId: string): Promise<void> {
  while ((await runImageQueueOnce(db, storeId)) > 0);
}

async function msUntilNextDue(db: Db): Promise<number | undefined> {
  const [row] = await queryRows<{ ms: number | null }>(
    db,
    sql`SELECT (extract(epoch FROM min(image_due_at) - now()) * 1000)::float8 AS ms
        FROM products WHERE image_due_at IS NOT NULL`,
  );
  return row?.ms === null || row?.ms === undefined ? undefined : Number(row.ms);
}

export interface ImageQueue {
  /** Looks for due work now (a sync in this process just queued some). */
  wake(): void;
  /** Stops after the batch in hand; what is left stays due in the database. */
  stop(): Promise<void>;
}

const running = new Set<ImageQueue>();

/** Wakes this process's image queues, if any runs here (the server; not the CLI). */
export function wakeImageQueues(): void {
  for (const queue of running) queue.wake();
}

/**
 * The background worker: takes due batches one after another, then sleeps until the next due
 * time, a wake-up, or IMAGE_QUEUE_POLL_MS (work queued by another process).
 */
export function startImageQueue(db: Db): ImageQueue {
  let stopping = false;
  let wakeUp: (() => void) | undefined;
  let woken = false;

  function sleep(ms: number): Promise<void> {
    if (woken) {
      woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref();
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        woken = false;
        resolve();
      }
      wakeUp = done;
    });
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      let wait = env().IMAGE_QUEUE_POLL_MS;
      try {
        if ((await runImageQueueOnce(db)) === BATCH) continue;
        const next = await msUntilNextDue(db);
        if (next !== undefined) wait = Math.min(wait, Math.max(0, next));
      } catch (err) {
        // The database may be briefly unreachable; the next pass tries again.
        logger().warn({ err }, 'image queue pass failed');
      }
      if (!stopping) await sleep(wait);
    }
  }

  const queue: ImageQueue = {
    wake() {
      woken = true;
      wakeUp?.();
    },
    async stop() {
      stopping = true;
      running.delete(queue);
      wakeUp?.();
      await finished;
    },
  };
  running.add(queue);
  const finished = loop();
  return queue;
}
