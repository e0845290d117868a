import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { variants } from '../db/schema';
import { startStoreSim, type StoreSim } from '../store-sim/server';
import { readUcpShopProducts } from '../store-sim/ucp-data';
import { addStore } from '../stores/registry';
import { attachToken } from '../stores/verification';
import { fastOrderSettings } from '../testing/fixtures/orders';
import { startTestServer, type TestServer } from '../testing/server';
import { uniqueDomain } from '../testing/unique';
import { startSync } from './sync';

fastOrderSettings();

const token = `shpat_${randomBytes(16).toString('hex')}`;
const domain = uniqueDomain('flowers', 'test');
let sim: StoreSim;
let t: TestServer;

beforeAll(async () => {
  sim = await startStoreSim({
    shops: [
      {
        domain,
        accessToken: token,
        products: readUcpShopProducts(path.join(__dirname, '../store-sim/fixtures/ucp-shop')),
      },
    ],
  });
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
  await sim?.close();
});

async function sync(storeId: string) {
  const outcome = await (await startSync(t.database.db, storeId)).done;
  expect(outcome.state, outcome.error ?? '').toBe('succeeded');
  const rows = await t.database.db
    .select({
      id: variants.externalId,
      stock: variants.inventoryQuantity,
      available: variants.available,
    })
    .from(variants)
    .where(eq(variants.storeId, storeId))
    .orderBy(variants.externalId);
  return rows;
}

describe('a sync of a UCP test-data shop', () => {
  it('keeps its string ids, and takes stock from the Admin API once the store has a token', async () => {
    const store = await addStore(t.database.db, { domain, baseUrl: sim.shopUrl(domain) });
    // No token: the storefront says only what is available.
    expect(await sync(store.id)).toEqual([
      { id: 'bouquet_roses', stock: null, available: true },
      { id: 'gardenias', stock: null, available: false },
      { id: 'pot_ceramic', stock: null, available: true },
    ]);
    expect((await attachToken(t.database.db, store.id, token)).state).toBe('verified');
    expect((await sync(store.id)).map((r) => [r.id, r.stock])).toEqual([
      ['bouquet_roses', 3],
      ['gardenias', 0],
      ['pot_ceramic', 20],
    ]);
    const placed = await fetch(`${sim.shopUrl(domain)}/admin/api/2026-10/orders.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shopify-access-token': token },
      body: JSON.stringify({ order: { line_items: [{ variant_id: 'pot_ceramic', quantity: 5 }] } }),
    });
    expect(placed.status).toBe(201);
    expect((await sync(store.id)).find((r) => r.id === 'pot_ceramic')?.stock).toBe(15);
  });
});
