import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../../config/env';
import { metrics } from '../../metrics/registry';
import { createFixtureStore } from '../../testing/fixtures/catalogue';
import { startTestServer, type TestServer } from '../../testing/server';
import { madeUpWord } from '../../testing/unique';
import { imageEmbedder } from '../embedder';
import { indexProductImages } from '../indexer';
import { shapeImage, type Rgb } from '../../testing/images/images';
import { startImageServer, type ImageServer } from '../../testing/images/image-server';

const RED: Rgb = [210, 30, 30];
const BLUE: Rgb = [30, 60, 200];
const GREEN: Rgb = [30, 150, 60];
const YELLOW: Rgb = [235, 200, 30];

let t: TestServer;
let images: ImageServer;
let pro: { key: string };
let storeId: string;

/** A shopper's copy of a picture: zoomed out and re-encoded, served from the loopback host. */
async function queryImage(path: string, shape: 'circle' | 'checks', color: Rgb): Promise<string> {
  const bytes = await sharp(await shapeImage(shape, color, [255, 255, 255], 128))
    .extend({ top: 24, bottom: 24, left: 24, right: 24, background: '#ffffff' })
    .jpeg({ quality: 70 })
    .toBuffer();
  images.set(path, { headers: { 'content-type': 'image/jpeg' }, body: bytes });
  return `${images.origin}${path}`;
}

async function search(query: { text: string; image_url?: string }) {
  return t.call('POST', '/search/products', {
    key: pro.key,
    body: { store_id: storeId, query, similarity_threshold: 0, max_result_count: 10 },
  });
}

function titles(body: { results: { title: string }[] }): string[] {
  return body.results.map((r) => r.title);
}

beforeAll(async () => {
  process.env.IMAGE_FETCH_ALLOW_HOSTS = '127.0.0.1';
  resetEnvCache();
  t = await startTestServer();
  images = await startImageServer();
  pro = await t.newDeveloper('pro');
  const catalogue: [string, 'circle' | 'checks' | 'square', Rgb][] = [
    ['Red circle cotton tee', 'circle', RED],
    ['Blue circle cotton tee', 'circle', BLUE],
    ['Green checked cotton tee', 'checks', GREEN],
    ['Yellow square cotton tee', 'square', YELLOW],
  ];
  const store = await createFixtureStore(
    t.database.db,
    catalogue.map(([title], i) => ({
      id: 8100 + i,
      title,
      variants: [{ id: 81000 + i, price: '20.00' }],
    })),
  );
  storeId = store.id;
  for (const [i, [, shape, color]] of catalogue.entries()) {
    const path = `/products/${8100 + i}.png`;
    images.set(path, {
      headers: { 'content-type': 'image/png' },
      body: await shapeImage(shape, color),
    });
    await t.database.db.execute(
      sql`UPDATE products SET images = ${JSON.stringify([`${images.origin}${path}`])}::jsonb
          WHERE id = ${store.productIds[i]!}`,
    );
  }
  const indexed = await indexProductImages(t.database.db, store.productIds);
  expect(indexed).toMatchObject({ embedded: 4, failed: [] });
});

afterAll(async () => {
  delete process.env.IMAGE_FETCH_ALLOW_HOSTS;
  resetEnvCache();
  await images?.close();
  await t?.close();
});

describe('POST /search/products with query.image_url (pro plan)', () => {
  it('ranks the products whose image resembles the query image first', async () => {
    const red = await search({
      text: 'cotton tee',
      image_url: await queryImage('/q/red.jpg', 'circle', RED),
    });
    expect(red.status).toBe(200);
    expect(titles(red.body)[0]).toBe('Red circle cotton tee');

    const blue = await search({
      text: 'cotton tee',
      image_url: await queryImage('/q/blue.jpg', 'circle', BLUE),
    });
    expect(titles(blue.body)[0]).toBe('Blue circle cotton tee');
  });

  it('blends text and image: each moves its own match up', async () => {
    const image = await queryImage('/q/blue-again.jpg', 'circle', BLUE);
    const textOnly = titles((await search({ text: 'green checked tee' })).body);
    const both = titles((await search({ text: 'green checked tee', image_url: image })).body);
    expect(textOnly[0]).toBe('Green checked cotton tee');
    // The image lifts the blue product above the ones neither text nor image match...
    expect(both.indexOf('Blue circle cotton tee')).toBeLessThan(
      both.indexOf('Yellow square cotton tee'),
    );
    expect(both.indexOf('Blue circle cotton tee')).toBeLessThan(
      both.indexOf('Red circle cotton tee'),
    );
    // ...while the text match stays in the top two.
    expect(both.indexOf('Green checked cotton tee')).toBeLessThan(2);
  });

  it('applies similarity_threshold to the blend: images sharing nothing with the query stay under it', async () => {
    const image = await queryImage('/q/red-threshold.jpg', 'circle', RED);
    const res = await t.call('POST', '/search/products', {
      key: pro.key,
      body: { store_id: storeId, query: { text: 'lamp', image_url: image }, max_result_count: 10 },
    });
    expect(res.status).toBe(200);
    // The text matches nothing; the red circle passes on its image, the blue circle on its
    // shape; products sharing neither shape nor colour stay under the default threshold.
    const found = titles(res.body);
    expect(found[0]).toBe('Red circle cotton tee');
    expect(found).not.toContain('Yellow square cotton tee');
    expect(found).not.toContain('Green checked cotton tee');
  });

  it('refuses an image URL that points into a private network, in any IPv6 form, saying why', async () => {
    for (const host of [
      '169.254.169.254',
      '[::a9fe:a9fe]',
      '[::ffff:0:a9fe:a9fe]',
      '[64:ff9b::a9fe:a9fe]',
      '[2002:a9fe:a9fe::]',
    ]) {
      const res = await search({
        text: 'cotton tee',
        image_url: `http://${host}/latest/meta-data`,
      });
      expect(res.status, host).toBe(400);
      expect(res.body.code).toBe('INVALID_REQUEST');
      expect(res.body.error).toBe('Image URL points to a private or reserved network address');
      expect(res.body.message).toContain('query.image_url');
    }
  });

  it('answers a repeated image query without fetching the image again', async () => {
    // A path of its own: the cache is keyed by URL, and the image server's port may recur.
    const path = `/q/${madeUpWord()}.jpg`;
    const url = await queryImage(path, 'checks', GREEN);
    for (let i = 0; i < 2; i++)
      expect((await search({ text: 'cotton tee', image_url: url })).status).toBe(200);
    expect(images.hits(path)).toBe(1);
  });

  it('times the image model in the metrics, beside the text model', async () => {
    const { modelId } = await imageEmbedder();
    const imageModelTasks = async () => {
      const { values } = await metrics().embeddingModel.get();
      return values
        .filter(
          (v) =>
            v.metricName === 'embedding_model_duration_seconds_count' && v.labels.model === modelId,
        )
        .reduce((sum, v) => sum + v.value, 0);
    };
    const before = await imageModelTasks();
    const image = await queryImage('/q/timed.jpg', 'checks', YELLOW);
    expect((await search({ text: 'cotton tee', image_url: image })).status).toBe(200);
    expect(await imageModelTasks()).toBeGreaterThan(before);
  });
});
