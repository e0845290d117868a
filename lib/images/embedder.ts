import { env } from '../config/env';
import { metrics } from '../metrics/registry';

/** Turns image bytes into unit vectors. */
export interface ImageEmbedder {
  readonly modelId: string;
  readonly dimensions: number;
  embedImages(images: Uint8Array[]): Promise<number[][]>;
}

export const OFFLINE_IMAGE_MODEL = 'mobilenet-v2-mid';

const slot = globalThis as unknown as { __imageEmbedder?: Promise<ImageEmbedder> };

async function create(name: string): Promise<ImageEmbedder> {
  if (name === OFFLINE_IMAGE_MODEL) {
    const { MobileNetImageEmbedder } = await import('./mobilenet');
    return new MobileNetImageEmbedder();
  }
  const { ClipProvider } = await import('../embeddings/transformers');
  return new ClipProvider(name);
}

/**
 * The model itself (callers may ask what it is: CLIP also embeds texts), each of its image calls
 * timed in the metrics (embedding_model_duration_seconds{model}).
 */
function timed(model: ImageEmbedder): ImageEmbedder {
  const embed = model.embedImages.bind(model);
  model.embedImages = async (images) => {
    const end = metrics().embeddingModel.startTimer({ model: model.modelId });
    try {
      return await embed(images);
    } finally {
      end();
    }
  };
  return model;
}

/** The image model IMAGE_EMBEDDING_MODEL names, loaded once per process. */
export function imageEmbedder(): Promise<ImageEmbedder> {
  slot.__imageEmbedder ??= create(env().IMAGE_EMBEDDING_MODEL).then(timed, (err: unknown) => {
    slot.__imageEmbedder = undefined;
    throw err;
  });
  return slot.__imageEmbedder;
}

/** Replaces the process's image model (tests use it to switch to a fixture model or count calls). */
export function setImageEmbedder(embedder: ImageEmbedder | undefined): void {
  slot.__imageEmbedder = embedder ? Promise.resolve(embedder) : undefined;
}
