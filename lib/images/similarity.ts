import { env } from '../config/env';
import { OFFLINE_IMAGE_MODEL } from './embedder';

/**
 * Cosine between two unrelated images, per model. Image vectors are not centred: the offline
 * model's unrelated pairs sit at a median cosine of 0.65 (look-alikes at 0.91; measured by
 * lib/tooling/images/evaluate-descriptors.ts), so a raw cosine would hand every product half an image
 * match. CLIP's 0.5 is an assumed typical value, not measured here: set IMAGE_SIMILARITY_FLOOR
 * after looking at a real model's scores.
 */
export function imageSimilarityFloor(): number {
  const config = env();
  return (
    config.IMAGE_SIMILARITY_FLOOR ??
    (config.IMAGE_EMBEDDING_MODEL === OFFLINE_IMAGE_MODEL ? 0.65 : 0.5)
  );
}

/**
 * How much a product's image resembles the query image, in [0, 1]:
 *   sim_image = clamp((cosine - floor) / (1 - floor), 0, 1)
 */
export function imageSimilarity(cosine: number): number {
  const floor = imageSimilarityFloor();
  return Math.min(1, Math.max(0, (cosine - floor) / (1 - floor)));
}
