/**
 * Turns text (and, for models that have one, images) into unit-length vectors. Every stored
 * vector records `modelId`, so vectors of different models are never compared.
 */
export interface EmbeddingProvider {
  readonly modelId: string;
  readonly dimensions: number;
  embedTexts(texts: string[]): Promise<number[][]>;
  /** Present only for models with an image tower (CLIP-family); same space as embedTexts. */
  embedImages?(images: Uint8Array[]): Promise<number[][]>;
}

export function normalize(v: ArrayLike<number>): number[] {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  const norm = Math.sqrt(sum) || 1;
  return Array.from(v, (x) => x / norm);
}

export function cosine(a: number[], b: number[]): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}
