import { pathToFileURL } from 'node:url';
import { openDatabase, type Db } from '../../db/client';
import { imageEmbedder } from '../../images/embedder';
import { embedQueryImage } from '../../images/query';
import { shapeImage, solidImage, type Rgb } from '../../testing/images/images';
import { startImageServer } from '../../testing/images/image-server';

export interface LatencyStats {
  p50: number;
  p95: number;
  mean: number;
}

export interface ImageQueryLatency {
  modelId: string;
  /** Loading the image model, paid once per process. */
  modelLoadMs: number;
  /** Distinct query images: loopback fetch, decode, embed and cache write. */
  uncachedMs: LatencyStats;
  /** The same URLs again: answered from image_cache. */
  cachedMs: LatencyStats;
  queries: number;
}

function stats(samples: number[]): LatencyStats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const round = (v: number) => Math.round(v * 10) / 10;
  return {
    p50: round(at(0.5)),
    p95: round(at(0.95)),
    mean: round(samples.reduce((a, b) => a + b, 0) / samples.length),
  };
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/**
 * Latency of embedQueryImage with the active image model, against query images generated and
 * served on a loopback port (so the figure is ours, not a remote host's): first without the cache,
 * then from it. For `npm run bench`.
 */
export async function measureImageQueryLatency(
  db: Db,
  opts: { queries?: number } = {},
): Promise<ImageQueryLatency> {
  const count = opts.queries ?? 20;
  const server = await startImageServer();
  try {
    const urls: string[] = [];
    const shapes = ['circle', 'square', 'stripes', 'checks'] as const;
    for (let i = 0; i < count + 1; i++) {
      const color: Rgb = [(i * 67) % 256, (i * 131) % 256, (i * 29) % 256];
      const bytes =
        i === 0
          ? await solidImage(color, 256)
          : await shapeImage(shapes[i % 4]!, color, [250, 250, 250], 512);
      server.set(`/bench-${i}.png`, { headers: { 'content-type': 'image/png' }, body: bytes });
      urls.push(`${server.origin}/bench-${i}.png?run=${Date.now()}`);
    }
    const allow = { allowHosts: ['127.0.0.1'] };
    const embedder = await imageEmbedder();
    const modelLoadMs = await timed(() => embedQueryImage(db, urls[0]!, allow));
    const queries = urls.slice(1);
    const uncached: number[] = [];
    for (const url of queries) uncached.push(await timed(() => embedQueryImage(db, url, allow)));
    const cached: number[] = [];
    for (const url of queries) cached.push(await timed(() => embedQueryImage(db, url, allow)));
    return {
      modelId: embedder.modelId,
      modelLoadMs: Math.round(modelLoadMs),
      uncachedMs: stats(uncached),
      cachedMs: stats(cached),
      queries: queries.length,
    };
  } finally {
    await server.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const database = await openDatabase({ url: 'memory://' });
  try {
    console.log(JSON.stringify(await measureImageQueryLatency(database.db)));
  } finally {
    await database.close();
  }
}
