import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../../config/env';
import { queryRows } from '../../db/client';
import { cosine } from '../../embeddings/provider';
import { ApiError } from '../../errors';
import { bigintArray } from '../../search/sql-arrays';
import { startTestServer, type TestServer } from '../../testing/server';
import { imageEmbedder, setImageEmbedder, type ImageEmbedder } from '../embedder';
import { indexProductImages } from '../indexer';
import { embedQueryImage } from '../query';
import { shapeImage, type Rgb } from '../testing/images';
import { startImageServer, type ImageServer } from '../testing/image-server';
import { insertImageProducts } from '../testing/products';

const RED: Rgb = [210, 30, 30];
const BLUE: Rgb = [30, 60, 200];
const GREEN: Rgb = [30, 150, 60];
const YELLOW: Rgb = [235, 200, 30];

let t: TestServer;
let images: ImageServer;
let embedder: ImageEmbedder;
let embedCalls = 0;

function png(path: string, bytes: Buffer): string {
  images.set(path, { headers: { 'content-type': 'image/png' }, body: bytes });
  return `${images.origin}${path}`;
}

/** The same picture as a shopper would find it elsewhere: zoomed out and re-encoded as JPEG. */
async function lookalike(path: string, shape: 'circle' | 'stripes', color: Rgb): Promise<string> {
  const base = await shapeImage(shape, color, [255, 255, 255], 128);
  const bytes = await sharp(base)
    .extend({ top: 32, bottom: 32, left: 32, right: 32, background: '#ffffff' })
    .jpeg({ quality: 60 })
    .toBuffer();
  images.set(path, { headers: { 'content-type': 'image/jpeg' }, body: bytes });
  return `${images.origin}${path}`;
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
    textAligned: real.textAligned,
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
  delete process.env.IMAGE_CACHE_TTL_HOURS;
  resetEnvCache();
  await images?.close();
  await t?.close();
});

describe('product image indexing and query images (offline MobileNet + colour model)', () => {
  let ids: number[];
  let named: Record<string, number>;

  it('embeds each product first image once, records failures without stopping, and skips unchanged ones', async () => {
    const catalogue = {
      'red circle': [
        png('/p/red-circle.png', await shapeImage('circle', RED)),
        png('/p/extra.png', await shapeImage('square', BLUE)),
      ],
      'blue circle': [png('/p/blue-circle.png', await shapeImage('circle', BLUE))],
      'red stripes': [png('/p/red-stripes.png', await shapeImage('stripes', RED))],
      'green checks': [png('/p/green-checks.png', await shapeImage('checks', GREEN))],
      'yellow square': [png('/p/yellow-square.png', await shapeImage('square', YELLOW))],
      'no image': [],
      'missing image': [`${images.origin}/p/missing.png`],
      'metadata image': ['http://169.254.169.254/latest/meta-data/image.png'],
    };
    ids = await insertImageProducts(
      t.database.db,
      Object.entries(catalogue).map(([title, urls]) => ({ title, images: urls })),
    );
    named = Object.fromEntries(Object.keys(catalogue).map((title, i) => [title, ids[i]!]));

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
    const url = await lookalike('/q/cached.jpg', 'circle', GREEN);
    const before = embedCalls;
    const first = await embedQueryImage(t.database.db, url);
    const second = await embedQueryImage(t.database.db, url);
    // pgvector stores float32: the cached copy equals the fresh one to float32 precision.
    expect(cosine(second.vector, first.vector)).toBeCloseTo(1, 5);
    expect(images.hits('/q/cached.jpg')).toBe(1);
    expect(embedCalls).toBe(before + 1);

    // The same bytes under another URL are fetched (the URL is new) but not embedded again.
    images.set('/q/cached-copy.jpg', {
      headers: { 'content-type': 'image/jpeg' },
      body: Buffer.from(await (await fetch(url)).arrayBuffer()),
    });
    await embedQueryImage(t.database.db, `${images.origin}/q/cached-copy.jpg`);
    expect(embedCalls).toBe(before + 1);

    // Past the TTL the URL is fetched again; unchanged content still costs no embedding.
    process.env.IMAGE_CACHE_TTL_HOURS = '0';
    resetEnvCache();
    await embedQueryImage(t.database.db, url);
    expect(images.hits('/q/cached.jpg')).toBe(3);
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
