// @no-test-database
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client';
import { products, stores } from '../db/schema';
import type { StoreSim } from '../store-sim/server';
import { findStoreByDomain } from '../stores/access';
import { addStore, getStoreSummary, listStores } from '../stores/registry';
import { demoCataloguePath } from './images';
import { DEMO_DOMAIN, seedDemoData } from './seed';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-seed-test-'));
const smallCatalogue = path.join(dir, 'products.json');
let database: Database;
let sim: StoreSim | undefined;

beforeAll(async () => {
  // A database of its own in both test runs: seeding only happens where no store exists yet.
  database = await openDatabase({ url: 'memory://' });
  const { products } = JSON.parse(fs.readFileSync(demoCataloguePath(), 'utf8'));
  fs.writeFileSync(
    smallCatalogue,
    JSON.stringify({ shop: { name: 'Tiny Demo' }, products: products.slice(0, 6) }),
  );
  process.env.DEMO_CATALOGUE = smallCatalogue;
});
// Seeding depends on which stores exist, so every test starts from a database without any.
beforeEach(async () => {
  await database.db.delete(stores);
});
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});
afterAll(async () => {
  await database?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('demo data', () => {
  it('registers the demo store on an empty database and syncs it from the in-process simulator', async () => {
    sim = await seedDemoData(database.db);
    expect(sim).toBeDefined();
    const row = await findStoreByDomain(database.db, DEMO_DOMAIN);
    const store = await getStoreSummary(database.db, row!.id);
    expect(store).toMatchObject({
      name: 'Tiny Demo',
      base_url: sim!.shopUrl(DEMO_DOMAIN),
      product_count: 6,
      sync: { state: 'succeeded', progress: { added: 6, failed: 0, embedded: 6 } },
    });
    const [served] = sim!.requests(DEMO_DOMAIN);
    expect(served).toMatchObject({ status: 200 });
    // Product images point at the simulator, which draws them.
    const [first] = await database.db.select().from(products).limit(1);
    const imageUrl = (first!.images as string[])[0]!;
    expect(imageUrl.startsWith(sim!.shopUrl(DEMO_DOMAIN))).toBe(true);
    const image = await fetch(imageUrl);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(100);
  });

  it('restarts the simulator for its own demo store without re-adding or re-embedding', async () => {
    sim = await seedDemoData(database.db);
    const port = new URL(sim!.baseUrl).port;
    await sim!.close();
    sim = await seedDemoData(database.db);
    expect(new URL(sim!.baseUrl).port).toBe(port);
    const stores = await listStores(database.db);
    expect(stores).toHaveLength(1);
    expect(stores[0]!.sync).toMatchObject({
      state: 'succeeded',
      progress: { unchanged: 6, added: 0, embedded: 0 },
    });
  });

  it('is off with DEMO_DATA=off, and leaves a database with other stores alone', async () => {
    process.env.DEMO_DATA = 'off';
    try {
      expect(await seedDemoData(database.db)).toBeUndefined();
    } finally {
      delete process.env.DEMO_DATA;
    }
    expect(await listStores(database.db)).toEqual([]);
    await addStore(database.db, { domain: 'real-shop.example' });
    expect(await seedDemoData(database.db)).toBeUndefined();
    expect(await findStoreByDomain(database.db, DEMO_DOMAIN)).toBeUndefined();
  });
});
