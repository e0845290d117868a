import os from 'node:os';
import { env } from '../config/env';
import { loadTextModel } from './models';
import { PooledTextProvider } from './pool';
import type { EmbeddingProvider } from './provider';

export type { EmbeddingProvider } from './provider';

const slot = globalThis as unknown as {
  __textEmbedder?: EmbeddingProvider;
  __keepTextModelLoaded?: boolean;
};

/**
 * The text embedder EMBEDDING_MODEL names; loaded once per process. It runs in
 * EMBEDDING_WORKERS worker threads (default: one per core), or in this thread when that is 0.
 */
export function textEmbedder(): EmbeddingProvider {
  if (!slot.__textEmbedder) {
    const { EMBEDDING_MODEL: model, EMBEDDING_WORKERS: workers } = env();
    const threads = workers ?? os.availableParallelism();
    slot.__textEmbedder =
      threads === 0
        ? loadTextModel(model)
        : new PooledTextProvider(model, threads, { keepOneLoaded: slot.__keepTextModelLoaded });
  }
  return slot.__textEmbedder;
}

/**
 * For a server, before its first use of textEmbedder(): one worker keeps the model loaded for
 * the process's life, loaded now rather than by the first query.
 */
export async function keepTextModelLoaded(): Promise<void> {
  slot.__keepTextModelLoaded = true;
  const embedder = textEmbedder();
  if (embedder instanceof PooledTextProvider) await embedder.load();
  else await embedder.embedTexts([' ']);
}
