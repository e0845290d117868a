import { normalize } from '../embeddings/provider';

const BINS = 4;

/**
 * A 4x4x4 RGB histogram of HWC pixels in [0, 1], square-rooted then unit-length (the Hellinger
 * form: cosine of two of these is the Bhattacharyya coefficient, so a large uniform background
 * does not drown the product's own colours). 64 dimensions.
 */
export function colourHistogram(pixels: Float32Array): number[] {
  const hist = new Array<number>(BINS ** 3).fill(0);
  for (let i = 0; i + 2 < pixels.length; i += 3) {
    const bin = (c: number) => Math.min(BINS - 1, Math.floor(pixels[i + c]! * BINS));
    hist[bin(0) * BINS * BINS + bin(1) * BINS + bin(2)]! += 1;
  }
  return normalize(hist.map(Math.sqrt));
}
