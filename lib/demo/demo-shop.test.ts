// @no-test-database
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startSync } from '../catalog/sync';
import { resetEnvCache } from '../config/env';
import { runImageQueueOnce } from '../images/queue';
import { queryRows } from '../db/client';
import type { StoreSim } from '../store-sim/server';
import { portlandAddress } from '../testing/fixtures/address';
import { startTestServer, type TestServer } from '../testing/server';
import { keepTokenKeyIn } from '../stores/token-key';
import { demoCataloguePath } from './images';
import { DEMO_DOMAIN, seedDemoData } from './seed';

/**
 * The demo as `npm start` makes it on the embedded database with no settings: no
 * STORE_TOKEN_KEY (the data directory's key file instead), the in-process simulator's shop
 * synced, and the API used over HTTP.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-shop-test-'));
const catalogueFile = path.join(dir, 'products.json');
const saved = { STORE_TOKEN_KEY: process.env.STORE_TOKEN_KEY, DEMO: process.env.DEMO_CATALOGUE };
let t: TestServer;
let sim: StoreSim | undefined;
let dev: { id: string; key: string };
let demoStoreId: string;

interface DemoProduct {
  id: number;
  title: string;
  images: Array<{ src: string }>;
  variants: Array<{ id: number; available: boolean }>;
}
const catalogue = JSON.parse(fs.readFileSync(demoCataloguePath(), 'utf8')) as {
  products: DemoProduct[];
};
/** A shirt, boots, a backpack and a tent: pictures far apart, so an image finds its own product. */
const products = [0, 42, 52, 103].map((i) => catalogue.products[i]!);

beforeAll(async () => {
  delete process.env.STORE_TOKEN_KEY;
  resetEnvCache();
  fs.writeFileSync(catalogueFile, JSON.stringify({ products }));
  process.env.DEMO_CATALOGUE = catalogueFile;
  // A database of its own in both runs: the demo is seeded only where no store exists yet.
  t = await startTestServer({ url: 'memory://' });
  keepTokenKeyIn(dir);
  sim = await seedDemoData(t.database.db);
  dev = await t.newDeveloper('pro');
  const listed = await t.call('GET', '/stores', { key: dev.key });
  demoStoreId = listed.body.stores.find((s: { domain: string }) => s.domain === DEMO_DOMAIN).id;
});
afterAll(async () => {
  await sim?.close();
  await t?.close();
  if (saved.STORE_TOKEN_KEY !== undefined) process.env.STORE_TOKEN_KEY = saved.STORE_TOKEN_KEY;
  if (saved.DEMO === undefined) delete process.env.DEMO_CATALOGUE;
  else process.env.DEMO_CATALOGUE = saved.DEMO;
  resetEnvCache();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the demo shop with no settings', () => {
  it('is listed, verified and takes an order placed through POST /buy', async () => {
    const listed = await t.call('GET', '/stores', { key: dev.key });
    expect(listed.body.stores).toContainEqual(
      expect.objectContaining({ id: demoStoreId, product_count: 4, verified: true }),
    );
    const profile = await t.call('POST', '/profiles/create', { key: dev.key });
    const userId = profile.body.profile.id;
    await t.call('POST', '/shipping/create', {
      key: dev.key,
      body: { profile_id: userId, shipping_address: portlandAddress },
    });
    const variantId = String(products[0]!.variants.find((v) => v.available)!.id);
    const bought = await t.call('POST', '/buy', {
      key: dev.key,
      body: {
        items: [{ variant_id: variantId, quantity: 1 }],
        user_id: userId,
        store_id: demoStoreId,
      },
    });
    expect([bought.status, bought.body.code]).toEqual([201, 'ORDER_CREATED']);
    const [order] = sim!.orders(DEMO_DOMAIN);
    expect(JSON.stringify(order)).toContain(`"variant_id":${variantId}`);
    expect(fs.statSync(path.join(dir, 'store-token.key')).mode & 0o777).toBe(0o600);
  });

  it('sells over UCP with its demo rules: shipping rates, WELCOME10 and the mock handler', async () => {
    const variant = products[0]!.variants.find((v) => v.available)!;
    const ucp = (method: string, route: string, body?: unknown) =>
      t.call(method, `/ucp/${demoStoreId}${route}`, { key: dev.key, body });
    const created = await ucp('POST', '/checkout-sessions', {
      currency: 'USD',
      line_items: [{ item: { id: String(variant.id) }, quantity: 1 }],
      fulfillment: {
        methods: [
          {
            type: 'shipping',
            destinations: [{ id: 'home', address_country: 'US', postal_code: '97201' }],
            selected_destination_id: 'home',
            groups: [{ selected_option_id: 'demo-express' }],
          },
        ],
      },
      discounts: { codes: ['WELCOME10'] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const group = created.body.fulfillment.methods[0].groups[0];
    expect(group.options.map((o: { id: string }) => o.id)).toEqual([
      'demo-standard',
      'demo-express',
    ]);
    expect(created.body.discounts.applied[0].code).toBe('WELCOME10');
    expect(created.body.payment.handlers.map((h: { id: string }) => h.id)).toEqual([
      'mock_payment_handler',
    ]);
    const done = await ucp('POST', `/checkout-sessions/${created.body.id}/complete`, {
      payment_data: {
        id: 'demo',
        handler_id: 'mock_payment_handler',
        credential: { type: 'token', token: 'success_token' },
      },
    });
    expect([done.status, done.body.status]).toEqual([200, 'completed']);
  });

  it('embedded the demo images at the first start, so an image of a product finds it first', async () => {
    expect(await imageVectorCount()).toBe(products.length);
    for (const product of [products[1]!, products[3]!]) {
      const res = await t.call('POST', '/search/products', {
        key: dev.key,
        body: {
          query: { text: 'something like this', image_url: await demoImageUrl(product) },
          store_id: demoStoreId,
        },
      });
      expect(res.status).toBe(200);
      expect(res.body.product_ids[0]).toBe(String(product.id));
    }
  });

  it('leaves a sync with a failing image at once, and the image queue tries it again, only that one', async () => {
    const [failing, failedBefore] = [products[0]!, products[2]!];
    const external = [String(failing.id), String(failedBefore.id)];
    // As if their fetches had failed at the first start: no image vector, due again.
    await t.database.db.execute(
      sql`DELETE FROM product_embeddings pe USING products p
          WHERE pe.product_id = p.id AND pe.store_id = p.store_id AND pe.kind = 'image'
            AND p.external_id IN (${external[0]}, ${external[1]})`,
    );
    await t.database.db.execute(
      sql`UPDATE products SET image_due_at = now()
          WHERE store_id = ${demoStoreId} AND external_id IN (${external[0]}, ${external[1]})`,
    );
    const imagePath = new URL(await demoImageUrl(failing)).pathname;
    sim!.inject({ kind: 'status', status: 503, match: { pathPrefix: imagePath }, times: 1 });
    const imageRequests = () =>
      sim!.requests(DEMO_DOMAIN).filter((r) => r.path.startsWith('/cdn/')).length;

    const before = imageRequests();
    // An unchanged catalogue: the sync itself fetches no image.
    await (
      await startSync(t.database.db, demoStoreId)
    ).done;
    expect(imageRequests() - before).toBe(0);

    expect(await runImageQueueOnce(t.database.db, demoStoreId)).toBe(2);
    expect(imageRequests() - before).toBe(2);
    expect(await imageVectorCount()).toBe(products.length - 1);

    // The failed one waits its turn; as if the wait had passed, the next pass takes only it.
    expect(await runImageQueueOnce(t.database.db, demoStoreId)).toBe(0);
    await t.database.db.execute(
      sql`UPDATE products SET image_due_at = now()
          WHERE store_id = ${demoStoreId} AND image_due_at IS NOT NULL`,
    );
    expect(await runImageQueueOnce(t.database.db, demoStoreId)).toBe(1);
    expect(imageRequests() - before).toBe(3);
    expect(await imageVectorCount()).toBe(products.length);
  });
});

async function imageVectorCount(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.database.db,
    sql`SELECT count(*)::int AS n FROM product_embeddings WHERE store_id = ${demoStoreId} AND kind = 'image'`,
  );
  return row!.n;
}

/** The product's first image as the store serves it (from the synced product). */
async function demoImageUrl(product: DemoProduct): Promise<string> {
  const res = await t.call('GET', `/products/${product.id}?store_id=${demoStoreId}`, {
    key: dev.key,
  });
  return res.body.product.images[0];
}
