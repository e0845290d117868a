import type { EmbeddingProvider } from './provider';
import { TransformersTextProvider } from './transformers';
import { UseLiteProvider } from './use-lite';

/**
 * The text model an EMBEDDING_MODEL value names, in this thread: the bundled default, or any
 * @huggingface/transformers model (a directory, absolute, ./relative or under MODELS_DIR, or a
 * hub id).
 */
export function loadTextModel(model: string): EmbeddingProvider {
  return model === 'use-lite' ? new UseLiteProvider() : new TransformersTextProvider(model);
}
