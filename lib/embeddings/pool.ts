import path from 'node:path';
import { Piscina } from 'piscina';
import { EMBED_TASK_SIZE, embedInLengthOrder } from './length-batches';
import { metrics } from '../metrics/registry';
import { loadTextModel } from './models';
import type { EmbeddingProvider } from './provider';

/**
 * The worker's source, from the repository root like every npm script runs: inside the Next
 * server this module is bundled, so its own URL does not point at lib/embeddings.
 */
function workerFile(): string {
  return path.resolve('lib/embeddings/embed-worker.ts');
}

export interface PoolOptions {
  /**
   * One worker stays, its model loaded, for the process's life (a server): otherwise the first
   * query after a quiet minute waited about 0.6 s for a worker to start and load the model.
   */
  keepOneLoaded?: boolean;
  /** How long a worker beyond that may idle before it stops, releasing its model. */
  idleTimeoutMs?: number;
}

/**
 * A text embedder whose model runs in worker threads, one model per worker: a sync's batches
 * use every core, and a query's embedding never blocks the event loop serving other requests.
 * Vectors are the in-thread model's (the worker runs the same provider). Idle workers do not
 * keep the process alive (piscina unrefs them), so a CLI command or test ends when its work does.
 */
export class PooledTextProvider implements EmbeddingProvider {
  readonly modelId: string;
  private readonly local: EmbeddingProvider;
  private readonly pool: Piscina;

  constructor(model: string, threads: number, opts: PoolOptions = {}) {
    // Loads nothing: it names the model and its width for callers that ask before embedding.
    this.local = loadTextModel(model);
    this.modelId = this.local.modelId;
    this.pool = new Piscina({
      filename: workerFile(),
      workerData: { model },
      minThreads: opts.keepOneLoaded ? 1 : 0,
      maxThreads: threads,
      // Model loading is slow: keep a loaded worker for a while rather than reloading per sync.
      idleTimeout: opts.idleTimeoutMs ?? 60_000,
      // tsx compiles the TypeScript worker whatever started this process (next, vitest, tsx).
      execArgv: ['--import', 'tsx'],
    });
  }

  get dimensions(): number {
    return this.local.dimensions;
  }

  get threads(): number {
    return this.pool.options.maxThreads;
  }

  /** Worker threads running now. */
  get runningThreads(): number {
    return this.pool.threads.length;
  }

  /** Tasks waiting for a worker. */
  get queued(): number {
    return this.pool.queueSize;
  }

  /** Loads the model in a worker now (each loads it on its first task). */
  async load(): Promise<void> {
    await this.pool.run([' ']);
  }

  embedTexts(texts: string[]): Promise<number[][]> {
    return embedInLengthOrder(texts, EMBED_TASK_SIZE, async (task) => {
      const end = metrics().embeddingModel.startTimer({ model: this.modelId });
      try {
        return (await this.pool.run(task)) as number[][];
      } finally {
        end();
      }
    });
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
