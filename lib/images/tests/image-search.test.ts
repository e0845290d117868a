import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../../config/env';
import { queryRows } from '../../db/client';
import { cosine } from '../../embeddings/provider';
import { ApiError } from '../../errors';
import { bigintArray } from '../../sql/arrays';
import { startTestServer, type TestServer } from '../../testing/server';
import { madeUpWord } from '../../testing/unique';
import { imageEmbedder, setImageEmbedder, type ImageEmbedder } from '../embedder';
import { indexProductImages } from '../indexer';
import { embedQueryImage } from '../query';
import { shapeImage, type Rgb } from '../../testing/images/images';
import { startImageServer, type ImageServer } from '../../testing/images/image-server';
import { insertImageProducts } from '../../testing/images/products';

const RED: Rgb = [210, 30, 30];
const BLUE: Rgb = [30, 60, 200];
const GREEN: Rgb = [30, 150, 60];
const YELLOW: Rgb = [235, 200, 30];

/** One product per shape, each test with its own: indexing the same products twice is a no-op. */
const SHAPES: Array<[string, 'circle' | 'square' | 'stripes' | 'checks', Rgb]> = [
  ['red circle', 'circle', RED],
  ['blue circle', 'circle', BLUE],
  ['red stripes', 'stripes', RED],
  ['green checks', 'checks', GREEN],
  ['yellow square', 'square', YELLOW],
];

let t: TestServer;
let images: ImageServer;
let embedder: ImageEmbedder;
let embedCalls = 0;

function png(path: string, bytes: Buffer): string {
  images.set(path, { headers: { 'content-type': 'image/png' }, body: bytes });
  return `${images.origin}${path}`;
}

/**
 * The same picture as a shopper would find it elsewhere: zoomed out and re-encoded as JPEG. A
 * caption makes the bytes differ from any earlier run's: the query cache is keyed by content too,
 * and a database named by TEST_DATABASE_URL keeps it between runs.
 */
async function lookalike(path: string, shape: 'circle' | 'stripes', color: Rgb): Promise<string> {
  const base = await shapeImage(shape, color, [255, 255, 255], 128);
  const bytes = await sharp(base)
    .extend({ top: 32, bottom: 32, left: 32, right: 32, background: '#ffffff' })
    .withExif({ IFD0: { ImageDescription: madeUpWord() } })
    .jpeg({ quality: 60 })
    .toBuffer();
  images.set(path, { headers: { 'content-type': 'image/jpeg' }, body: bytes });
  return `${images.origin}${path}`;
}

/** Products titled as in SHAPES with their shape as first image, served under /{folder}/. */
async function shapeProducts(
  folder: string,
  more: Record<string, string[]> = {},
): Promise<Record<string, number>> {
  const catalogue: Record<string, string[]> = {};
  for (const [title, shape, color] of SHAPES) {
    catalogue[title] = [
      png(`/${folder}/${title.replace(' ', '-')}.png`, await shapeImage(shape, color)),
    ];
  }
  for (const [title, urls] of Object.entries(more)) {
    catalogue[title] = [...(catalogue[title] ?? []), ...urls];
  }
  const ids = await insertImageProducts(
    t.database.db,
    Object.entries(catalogue).map(([title, images]) => ({ title, images })),
  );
  return Object.fromEntries(Object.keys(catalogue).map((title, i) => [title, ids[i]!]));
}

async function rank(productIds: number[], vector: number[], modelId: string): Promise<number[]> {
  const rows = await queryRows<{ product_id: string | number }>(
    t.database.db,
    sql`SELECT product_id FROM product_embeddings
        WHERE kind = 'image' AND model_id = ${modelId} AND product_id = ANY(${bigintArray(productIds)})
        ORDER BY embedding <=> ${`[${vector.join(',')}]`}::vector`,
  );
  return rows.map((r) => Number(r.product_id));
}

beforeAll(async () => {
  process.env.IMAGE_FETCH_ALLOW_HOSTS = '127.0.0.1';
  resetEnvCache();
  t = await startTestServer();
  images = await startImageServer();
  const real = await imageEmbedder();
  embedder = {
    modelId: real.modelId,
    dimensions: real.dimensions,
    embedImages(batch) {
      embedCalls += batch.length;
      return real.embedImages(batch);
    },
  };
  setImageEmbedder(embedder);
});

afterAll(async () => {
  setImageEmbedder(undefined);
  delete process.env.IMAGE_FETCH_ALLOW_HOSTS;
  resetEnvCache();
  await images?.close();
  await t?.close();
});

describe('product image indexing and query images (offline MobileNet + colour model)', () => {
  it('embeds each product first image once, records failures without stopping, and skips unchanged ones', async () => {
    const named = await shapeProducts('p', {
      'red circle': [png('/p/extra.png', await shapeImage('square', BLUE))],
      'no image': [],
      'missing image': [`${images.origin}/p/missing.png`],
      'metadata image': ['http://169.254.169.254/latest/meta-data/image.png'],
    });
    const ids = Object.values(named);

    const first = await indexProductImages(t.database.db, ids);
    expect(first.embedded).toBe(5);
    expect(first.withoutImage).toBe(1);
    expect(first.failed.map((f) => f.productId).sort()).toEqual(
      [named['missing image'], named['metadata image']].sort(),
    );
    expect(first.failed.find((f) => f.productId === named['metadata image'])!.error).toContain(
      'private or reserved network address',
    );
    expect(first.failed.find((f) => f.productId === named['missing image'])!.error).toContain(
      'HTTP 404',
    );
    expect(images.hits('/p/extra.png')).toBe(0);

    const again = await indexProductImages(t.database.db, ids);
    expect(again).toMatchObject({ embedded: 0, unchanged: 5 });
    expect(images.hits('/p/red-circle.png')).toBe(1);

    await t.database.db.execute(
      sql`UPDATE products SET images = ${JSON.stringify([png('/p/yellow-square-v2.png', await shapeImage('square', YELLOW))])}::jsonb
          WHERE id = ${named['yellow square']}`,
    );
    const changed = await indexProductImages(t.database.db, ids);
    expect(changed).toMatchObject({ embedded: 1, unchanged: 4 });
    const rows = await queryRows<{ n: string | number }>(
      t.database.db,
      sql`SELECT count(*) AS n FROM product_embeddings WHERE kind = 'image' AND model_id = ${embedder.modelId}
          AND product_id = ANY(${bigintArray(ids)})`,
    );
    expect(Number(rows[0]!.n)).toBe(5);
  });

  it('ranks the products whose image resembles the query image first', async () => {
    const named = await shapeProducts('ranked');
    const ids = Object.values(named);
    expect(await indexProductImages(t.database.db, ids)).toMatchObject({ embedded: 5 });
    const red = await embedQueryImage(
      t.database.db,
      await lookalike('/q/red-circle.jpg', 'circle', RED),
    );
    expect(red.modelId).toBe(embedder.modelId);
    expect(red.vector).toHaveLength(embedder.dimensions);
    expect((await rank(ids, red.vector, red.modelId))[0]).toBe(named['red circle']);

    const blue = await embedQueryImage(
      t.database.db,
      await lookalike('/q/blue-circle.jpg', 'circle', BLUE),
    );
    expect((await rank(ids, blue.vector, blue.modelId))[0]).toBe(named['blue circle']);

    const stripes = await embedQueryImage(
      t.database.db,
      await lookalike('/q/red-stripes.jpg', 'stripes', RED),
    );
    expect((await rank(ids, stripes.vector, stripes.modelId))[0]).toBe(named['red stripes']);
  });

  it('answers a repeated query image from the cache: no second fetch, no second embedding', async () => {
    // A path of its own: the cache is keyed by URL, and the image server's port may recur.
    const path = `/q/${madeUpWord()}.jpg`;
    const url = await lookalike(path, 'circle', GREEN);
    const before = embedCalls;
    const first = await embedQueryImage(t.database.db, url);
    const second = await embedQueryImage(t.database.db, url);
    // pgvector stores float32: the cached copy equals the fresh one to float32 precision.
    expect(cosine(second.vector, first.vector)).toBeCloseTo(1, 5);
    expect(images.hits(path)).toBe(1);
    expect(embedCalls).toBe(before + 1);

    // The same bytes under another URL are fetched (the URL is new) but not embedded again.
    images.set(`${path}.copy`, {
      headers: { 'content-type': 'image/jpeg' },
      body: Buffer.from(await (await fetch(url)).arrayBuffer()),
    });
    await embedQueryImage(t.database.db, `${images.origin}${path}.copy`);
    expect(embedCalls).toBe(before + 1);

    // Past the TTL the URL is fetched again; unchanged content still costs no embedding.
    process.env.IMAGE_CACHE_TTL_HOURS = '0';
    resetEnvCache();
    try {
      await embedQueryImage(t.database.db, url);
    } finally {
      delete process.env.IMAGE_CACHE_TTL_HOURS;
      resetEnvCache();
    }
    expect(images.hits(path)).toBe(3);
    expect(embedCalls).toBe(before + 1);
  });

  it('refuses an unsafe query image URL, naming query.image_url', async () => {
    const err = await embedQueryImage(t.database.db, 'http://10.0.0.7/shoe.png').catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe(
      'Image URL points to a private or reserved network address',
    );
    expect((err as ApiError).details).toMatch(/^query\.image_url: /);
  });
});
