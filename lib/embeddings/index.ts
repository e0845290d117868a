import { env } from '../config/env';
import type { EmbeddingProvider } from './provider';
import { TransformersTextProvider } from './transformers';
import { UseLiteProvider } from './use-lite';

export type { EmbeddingProvider } from './provider';

const slot = globalThis as unknown as { __textEmbedder?: EmbeddingProvider };

/** The text embedder EMBEDDING_MODEL names; loaded once per process. */
export function textEmbedder(): EmbeddingProvider {
  if (!slot.__textEmbedder) {
    const model = env().EMBEDDING_MODEL;
    // Anything but the bundled default is a @huggingface/transformers model: a directory
    // (absolute, ./relative, or under MODELS_DIR) or a hub id.
    slot.__textEmbedder =
      model === 'use-lite' ? new UseLiteProvider() : new TransformersTextProvider(model);
  }
  return slot.__textEmbedder;
}
