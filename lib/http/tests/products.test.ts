import { randomBytes, randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../../config/env';
import { insertStore, storefrontProduct } from '../../testing/fixtures/orders';
import { createFixtureStore } from '../../testing/fixtures/catalogue';
import { startStoreSim } from '../../store-sim/server';
import { attachToken } from '../../stores/verification';
import { portlandAddress } from '../../testing/fixtures/address';
import { startTestServer, type TestServer } from '../../testing/server';
import { madeUpWord, uniqueDomain } from '../../testing/unique';
import type { FixtureProduct } from '../../testing/fixtures/admin-product';

let t: TestServer;
let dev: { id: string; key: string };
let outsider: { id: string; key: string };
let first: { id: string; domain: string; name: string };
let second: { id: string; domain: string; name: string };
let closed: { id: string; domain: string };

/** Platform ids no other test or earlier run uses, as test files share one database. */
const BASE = 7_000_000_000 + randomInt(1_000_000_000) * 10;
const LAMP = BASE + 1;
const SHARED = BASE + 2;
const HIDDEN = BASE + 3;
const WORD = madeUpWord();

const lamp: FixtureProduct = {
  id: LAMP,
  title: `Rustic Linen Table Lamp ${WORD}`,
  productType: 'Lighting',
  description: 'A linen shade on an oak base.',
  options: [{ name: 'Colour', values: ['Sand', 'Oat'] }],
  variants: [
    { id: LAMP * 10 + 1, price: '59.00', title: 'Sand', option1: 'Sand' },
    { id: LAMP * 10 + 2, price: '61.50', title: 'Oat', option1: 'Oat', available: false },
  ],
};

const shared = (title: string): FixtureProduct => ({
  id: SHARED,
  title,
  variants: [{ id: SHARED * 10 + 1, price: '10.00' }],
});

function get(path: string, key: string | null = dev.key) {
  return t.call('GET', path, { key });
}

async function profileWithAddress(key = dev.key): Promise<string> {
  const created = await t.call('POST', '/profiles/create', { key });
  const id = created.body.profile.id;
  const shipping = await t.call('POST', '/shipping/create', {
    key,
    body: { profile_id: id, shipping_address: portlandAddress },
  });
  expect(shipping.status).toBe(201);
  return id;
}

beforeAll(async () => {
  t = await startTestServer();
  dev = await t.newDeveloper('free');
  outsider = await t.newDeveloper('free');
  first = await createFixtureStore(t.database.db, [lamp, shared('Shared id in the first store')]);
  second = await createFixtureStore(t.database.db, [shared('Shared id in the second store')]);
  closed = await createFixtureStore(
    t.database.db,
    [{ id: HIDDEN, title: 'Members-only lamp', variants: [{ id: HIDDEN * 10 + 1, price: '5' }] }],
    { accessPolicy: 'allow', allowedDevelopers: [dev.id] },
  );
});
afterAll(() => t?.close());

describe('GET /products/{id}', () => {
  it('answers the product exactly as search returns it, every variant included', async () => {
    const found = await t.call('POST', '/search/products', {
      key: dev.key,
      body: { store_id: first.id, query: { text: WORD }, max_result_count: 1 },
    });
    expect(found.body.product_ids).toEqual([String(LAMP)]);

    const res = await get(`/products/${LAMP}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: 'PRODUCT_RETRIEVED', product: found.body.results[0] });
    expect(res.body.product).toMatchObject({
      id: String(LAMP),
      store_id: first.id,
      store_name: first.name,
      store_domain: first.domain,
      options: [{ name: 'Colour', values: ['Sand', 'Oat'] }],
    });
    expect(res.body.product.variants).toEqual([
      expect.objectContaining({ id: LAMP * 10 + 1, price: '59.00', available: true }),
      expect.objectContaining({ id: LAMP * 10 + 2, price: '61.50', available: false }),
    ]);
    expect(res.body.product.variants[0].checkout_url).toBe(
      `https://${first.domain}/cart/${LAMP * 10 + 1}:1`,
    );
    expect(res.body.product.variants[0]).not.toHaveProperty('checkout_url_with_shipping');
  });

  it('pre-fills checkout links with the address of the profile given', async () => {
    const profileId = await profileWithAddress();
    const res = await get(`/products/${LAMP}?profile_id=${profileId}`);
    expect(res.status).toBe(200);
    const link = new URL(res.body.product.variants[0].checkout_url_with_shipping);
    expect(`${link.origin}${link.pathname}`).toBe(
      `https://${first.domain}/cart/${LAMP * 10 + 1}:1`,
    );
    expect(link.searchParams.get('checkout[email]')).toBe('grace@example.com');
    expect(link.searchParams.get('checkout[shipping_address][zip]')).toBe('97201');

    const bare = await t.call('POST', '/profiles/create', { key: dev.key });
    const withoutAddress = await get(`/products/${LAMP}?profile_id=${bare.body.profile.id}`);
    expect(withoutAddress.status).toBe(200);
    expect(withoutAddress.body.product.variants[0]).not.toHaveProperty(
      'checkout_url_with_shipping',
    );
  });

  it("answers PROFILE_NOT_FOUND for another developer's profile", async () => {
    const theirs = await profileWithAddress(outsider.key);
    const res = await get(`/products/${LAMP}?profile_id=${theirs}`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'PROFILE_NOT_FOUND' });
    expect(typeof res.body.error).toBe('string');
  });

  it('answers 404 PRODUCT_NOT_FOUND for an unknown id, with error and message', async () => {
    const res = await get(`/products/${BASE + 9}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      code: 'PRODUCT_NOT_FOUND',
      error: `No product with id ${BASE + 9}`,
      message: `Unknown product id ${BASE + 9}`,
    });
  });

  it('shows products of a closed store only to the developers it lists', async () => {
    const listed = await get(`/products/${HIDDEN}`);
    expect(listed.status).toBe(200);
    expect(listed.body.product.store_id).toBe(closed.id);
    for (const path of [`/products/${HIDDEN}`, `/products/${HIDDEN}?store_id=${closed.id}`]) {
      const res = await get(path, outsider.key);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(
        path.includes('store_id') ? 'STORE_NOT_FOUND' : 'PRODUCT_NOT_FOUND',
      );
    }
  });

  it('takes the store from store_id or store_domain; without one the first registered answers', async () => {
    const plain = await get(`/products/${SHARED}`);
    expect(plain.body.product).toMatchObject({
      store_id: first.id,
      title: 'Shared id in the first store',
    });
    const byId = await get(`/products/${SHARED}?store_id=${second.id}`);
    expect(byId.body.product).toMatchObject({
      store_id: second.id,
      title: 'Shared id in the second store',
    });
    const byDomain = await get(`/products/${SHARED}?store_domain=${second.domain.toUpperCase()}`);
    expect(byDomain.body.product.store_id).toBe(second.id);
    const elsewhere = await get(`/products/${LAMP}?store_id=${second.id}`);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.code).toBe('PRODUCT_NOT_FOUND');
    const unknown = await get(`/products/${SHARED}?store_domain=nowhere.example.com`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'STORE_NOT_FOUND' });
  });

  it('needs a key, and refuses an empty parameter as INVALID_REQUEST', async () => {
    const missing = await get(`/products/${LAMP}`, null);
    expect(missing.status).toBe(401);
    expect(missing.body.code).toBe('AUTH_MISSING');
    const invalid = await get(`/products/${LAMP}?store_domain=`);
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe('INVALID_REQUEST');
    expect(invalid.body.issues).toEqual([{ path: 'store_domain', message: 'must not be empty' }]);
  });

  it('is in the OpenAPI document with its parameters and failure codes', async () => {
    const doc = (await t.call('GET', '/openapi.json')).body;
    const op = doc.paths['/products/{id}'].get;
    expect(op.operationId).toBe('getProduct');
    expect(op.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      'id',
      'profile_id',
      'store_domain',
      'store_id',
    ]);
    expect(op.responses['200']).toBeDefined();
    expect(op.responses['404'].description).toContain('PRODUCT_NOT_FOUND');
  });

  it("carries the store's currency as its platform states it, once the store is verified", async () => {
    const domain = uniqueDomain('euro-shop', 'test');
    const id = BASE + 5;
    const product = {
      id,
      title: 'Euro lamp',
      variants: [{ id: id * 10, title: 'Default Title', price: '12.00', available: true }],
    };
    const sim = await startStoreSim({
      shops: [
        {
          domain,
          currency: 'EUR',
          accessToken: 'shpat_euro',
          products: [storefrontProduct(product)],
        },
      ],
    });
    try {
      const storeId = await insertStore(t.database.db, {
        domain,
        baseUrl: sim.shopUrl(domain),
        products: [product],
      });
      const before = await get(`/products/${id}?store_id=${storeId}`);
      expect(before.body.product.currency).toBeNull();
      process.env.STORE_TOKEN_KEY = randomBytes(32).toString('base64');
      resetEnvCache();
      expect((await attachToken(t.database.db, storeId, 'shpat_euro')).state).toBe('verified');
      const after = await get(`/products/${id}?store_id=${storeId}`);
      expect(after.body.product.currency).toBe('EUR');
      const listed = await get('/stores');
      expect(listed.body.stores).toContainEqual(
        expect.objectContaining({ id: storeId, currency: 'EUR', verified: true }),
      );
    } finally {
      delete process.env.STORE_TOKEN_KEY;
      resetEnvCache();
      await sim.close();
    }
  });
});
