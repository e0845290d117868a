import { env } from '../config/env';
import type { EmbeddingProvider } from './provider';
import { UseLiteProvider } from './use-lite';

export type { EmbeddingProvider } from './provider';

const slot = globalThis as unknown as { __textEmbedder?: EmbeddingProvider };

/** The text embedder EMBEDDING_MODEL names; loaded once per process. */
export function textEmbedder(): EmbeddingProvider {
  if (!slot.__textEmbedder) {
    const model = env().EMBEDDING_MODEL;
    if (model !== 'use-lite') {
      throw new Error(`Unknown EMBEDDING_MODEL "${model}"`);
    }
    slot.__textEmbedder = new UseLiteProvider();
  }
  return slot.__textEmbedder;
}

/** Replaces the process's text embedder (tests use it to count calls). */
export function setTextEmbedder(provider: EmbeddingProvider): void {
  slot.__textEmbedder = provider;
}
