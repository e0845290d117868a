/**
 * Measures which offline image descriptor ranks look-alike images first, on images generated
 * here (shapes x colours, each in four renderings: as drawn, zoomed out, rotated + JPEG,
 * shifted on a tinted background). Every image queries all others; mean average precision is
 * reported with three notions of "relevant": same shape and colour, same shape, same colour.
 *
 *   node --import tsx lib/tooling/images/evaluate-descriptors.ts
 */
import sharp from 'sharp';
import { cosine, normalize } from '../../embeddings/provider';
import { colourHistogram } from '../../images/colour-histogram';
import { MobileNetImageEmbedder } from '../../images/mobilenet';
import { decodeRgb } from '../../images/pixels';
import { shapeImage, type Rgb } from '../../testing/images/images';

const SHAPES = ['circle', 'square', 'stripes', 'checks'] as const;
const COLOURS: Record<string, Rgb> = {
  red: [210, 30, 30],
  green: [30, 150, 60],
  blue: [30, 60, 200],
  yellow: [235, 200, 30],
  black: [20, 20, 20],
  purple: [130, 40, 150],
};

interface Sample {
  shape: string;
  colour: string;
  bytes: Buffer;
}

async function renderings(shape: (typeof SHAPES)[number], colour: Rgb): Promise<Buffer[]> {
  const base = await shapeImage(shape, colour, [255, 255, 255], 128);
  const tinted = await shapeImage(shape, colour, [238, 234, 222], 128);
  const white = { r: 255, g: 255, b: 255 };
  return Promise.all([
    Promise.resolve(base),
    sharp(base)
      .extend({ top: 40, bottom: 40, left: 40, right: 40, background: white })
      .resize(128, 128)
      .png()
      .toBuffer(),
    sharp(base).rotate(90).jpeg({ quality: 45 }).toBuffer(),
    sharp(tinted)
      .extend({ top: 0, bottom: 30, left: 30, right: 0, background: { r: 238, g: 234, b: 222 } })
      .png()
      .toBuffer(),
  ]);
}

/** The simple baseline: 4x4x4 colour histogram (Hellinger) + 8x8 grey layout, equally weighted. */
async function histogramThumbnail(bytes: Uint8Array): Promise<number[]> {
  const colour = colourHistogram(await decodeRgb(bytes, 64));
  const thumb = await decodeRgb(bytes, 8);
  const grey: number[] = [];
  for (let i = 0; i < thumb.length; i += 3)
    grey.push((thumb[i]! + thumb[i + 1]! + thumb[i + 2]!) / 3);
  const mean = grey.reduce((a, b) => a + b, 0) / grey.length;
  const layout = normalize(grey.map((g) => g - mean));
  return normalize([...colour, ...layout]);
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.round(q * (sorted.length - 1))]!;
}

/** Cosines of look-alike pairs and of unrelated pairs: where image similarity should start. */
function cosineSpread(vectors: number[][], same: (a: number, b: number) => boolean): string {
  const alike: number[] = [];
  const unrelated: number[] = [];
  for (let a = 0; a < vectors.length; a++) {
    for (let b = a + 1; b < vectors.length; b++) {
      (same(a, b) ? alike : unrelated).push(cosine(vectors[a]!, vectors[b]!));
    }
  }
  const f = (v: number) => v.toFixed(2);
  return (
    `cosine look-alike min ${f(quantile(alike, 0))} median ${f(quantile(alike, 0.5))}; ` +
    `unrelated median ${f(quantile(unrelated, 0.5))} p95 ${f(quantile(unrelated, 0.95))}`
  );
}

function meanAveragePrecision(
  vectors: number[][],
  relevant: (a: number, b: number) => boolean,
): number {
  let total = 0;
  for (let q = 0; q < vectors.length; q++) {
    const ranked = vectors
      .map((v, i) => ({ i, s: cosine(vectors[q]!, v) }))
      .filter((r) => r.i !== q)
      .sort((a, b) => b.s - a.s);
    let hits = 0;
    let sum = 0;
    ranked.forEach((r, rank) => {
      if (relevant(q, r.i)) {
        hits++;
        sum += hits / (rank + 1);
      }
    });
    total += hits ? sum / hits : 0;
  }
  return total / vectors.length;
}

async function main(): Promise<void> {
  const samples: Sample[] = [];
  for (const shape of SHAPES) {
    for (const [colour, rgb] of Object.entries(COLOURS)) {
      for (const bytes of await renderings(shape, rgb)) samples.push({ shape, colour, bytes });
    }
  }
  const mobilenet = (colourWeight: number) => {
    const embedder = new MobileNetImageEmbedder({ colourWeight });
    return (b: Uint8Array[]) => embedder.embedImages(b);
  };
  await mobilenet(0)([samples[0]!.bytes]);
  const descriptors: Record<string, (b: Uint8Array[]) => Promise<number[][]>> = {
    'colour histogram alone (64 dims)': async (b) =>
      Promise.all(b.map(async (x) => colourHistogram(await decodeRgb(x, 224)))),
    'colour histogram + 8x8 grey layout (128 dims)': (b) => Promise.all(b.map(histogramThumbnail)),
    'MobileNetV2 features alone (1792 dims)': mobilenet(0),
    'MobileNetV2 + colour histogram, colour weight 0.35': mobilenet(0.35),
    'MobileNetV2 + colour histogram, colour weight 0.5 (chosen)': mobilenet(0.5),
    'MobileNetV2 + colour histogram, colour weight 0.65': mobilenet(0.65),
  };
  console.log(
    `${samples.length} images: ${SHAPES.length} shapes x ${Object.keys(COLOURS).length} colours x 4 renderings`,
  );
  for (const [name, embed] of Object.entries(descriptors)) {
    const started = performance.now();
    const vectors = await embed(samples.map((s) => s.bytes));
    const ms = (performance.now() - started) / samples.length;
    const same = (a: number, b: number) =>
      samples[a]!.shape === samples[b]!.shape && samples[a]!.colour === samples[b]!.colour;
    const shape = (a: number, b: number) => samples[a]!.shape === samples[b]!.shape;
    const colour = (a: number, b: number) => samples[a]!.colour === samples[b]!.colour;
    console.log(
      `${name}: mAP same shape+colour ${meanAveragePrecision(vectors, same).toFixed(3)}, ` +
        `same shape ${meanAveragePrecision(vectors, shape).toFixed(3)}, ` +
        `same colour ${meanAveragePrecision(vectors, colour).toFixed(3)}, ${ms.toFixed(1)} ms/image\n` +
        `  ${cosineSpread(vectors, same)}`,
    );
  }
}

await main();
