import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../config/env';
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

const { products } = JSON.parse(fs.readFileSync(demoCataloguePath(), 'utf8')) as {
  products: Array<{
    id: number;
    title: string;
    variants: Array<{ id: number; available: boolean }>;
  }>;
};

beforeAll(async () => {
  delete process.env.STORE_TOKEN_KEY;
  resetEnvCache();
  fs.writeFileSync(catalogueFile, JSON.stringify({ products: products.slice(0, 4) }));
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
});
