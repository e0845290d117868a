import type { Db } from '../../db/client';
import { textEmbedder } from '../../embeddings/index';
import type { IndexableProduct } from './lexical-index';
import { computeProductVectors, storeProductVectors } from './text-embeddings';

/**
 * Products per batch. A batch is split into worker tasks (lib/embeddings/pool.ts): enough of
 * them to keep every worker busy.
 */
export const EMBED_BATCH = 256;

/**
 * Batches started and not yet written: one being written while the next is computed. More
 * would only hold more vectors in memory, the model being the slower stage.
 */
const BATCHES_IN_FLIGHT = 2;

export interface WrittenBatch {
  items: IndexableProduct[];
  /** Inputs that went through the model. */
  embedded: number;
  /** Products whose vector was kept (unchanged input) or came from embedding_cache. */
  reused: number;
}

async function settled(p: Promise<unknown>): Promise<void> {
  await p.then(
    () => undefined,
    () => undefined,
  );
}

/**
 * Text embedding in two stages: the model computes a batch's vectors in its worker threads
 * while this thread writes the previous batch's to product_embeddings. Done one after the
 * other, the workers idled during every write: a page of 250 Home Depot products took 2.2 s in
 * the model, then 1.4 s to write (the HNSW index's inserts most of it). Batches are written in
 * the order they were added, each followed by `onWritten`.
 */
export class TextVectorPipeline {
  private readonly inFlight: Promise<void>[] = [];
  private last: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly onWritten: (batch: WrittenBatch) => Promise<void> | void = () => undefined,
  ) {}

  /**
   * Starts computing the vectors of `items`, in batches of EMBED_BATCH, each once fewer than
   * BATCHES_IN_FLIGHT batches are unwritten. Throws the failure of an earlier batch.
   */
  async add(items: IndexableProduct[]): Promise<void> {
    for (let i = 0; i < items.length; i += EMBED_BATCH) {
      await this.addBatch(items.slice(i, i + EMBED_BATCH));
    }
  }

  private async addBatch(items: IndexableProduct[]): Promise<void> {
    while (this.inFlight.length >= BATCHES_IN_FLIGHT) await this.inFlight.shift();
    const vectors = computeProductVectors(this.db, textEmbedder(), items);
    // Awaited below once the batch before is written: unhandled until then, a failure in the
    // meantime would end the process.
    vectors.catch(() => undefined);
    const previous = this.last;
    const written = (async () => {
      // A failed batch fails the ones after it, but only once this one's model work is over:
      // nothing of the pipeline still runs when its owner has seen the failure.
      try {
        await previous;
      } finally {
        await settled(vectors);
      }
      const batch = await vectors;
      await storeProductVectors(this.db, batch);
      await this.onWritten({ items, embedded: batch.embedded, reused: batch.reused });
    })();
    // Its failure is thrown by add or drain, not as an unhandled rejection.
    written.catch(() => undefined);
    this.last = written;
    this.inFlight.push(written);
  }

  /** Waits until every batch is written; throws the first failure. */
  async drain(): Promise<void> {
    while (this.inFlight.length > 0) await this.inFlight.shift();
  }

  /** Waits until no batch is computing or writing, whatever their outcome (after a failure). */
  async settle(): Promise<void> {
    await Promise.all(this.inFlight.splice(0).map(settled));
  }
}
