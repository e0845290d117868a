import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../../config/env';
import { productEmbeddings, products, searchPostings, variants } from '../../db/schema';
import { stopBackgroundWork } from '../../server/lifecycle';
import { startStoreSim, type StoreSim } from '../../store-sim/server';
import { startTestServer, type TestServer } from '../../testing/server';
import { uniqueDomain } from '../../testing/unique';
import { waitFor } from '../../testing/wait-for';

const TOKEN = 'operator-token-for-tests-0123456789';
let t: TestServer;
let sim: StoreSim;

function product(id: number, title: string, price = '20.00', extra: object = {}) {
  return {
    id,
    title,
    handle: title.toLowerCase().replace(/\W+/g, '-'),
    body_html: `<p>${title}, made with care.</p>`,
    vendor: 'Sim Goods',
    product_type: 'Home',
    tags: ['home'],
    options: [{ name: 'Title', position: 1, values: ['Default Title'] }],
    variants: [{ id: id * 10 + 1, title: 'Default Title', price, available: true }],
    images: [],
    ...extra,
  };
}

const catalogue = [
  product(101, 'Oak Cutting Board', '35.00'),
  product(102, 'Linen Napkins', '18.50'),
  product(103, 'Stoneware Mug', '12.00'),
  product(104, 'Wool Throw Blanket', '89.00'),
  product(105, 'Brass Candle Holder', '24.00'),
  product(106, 'Broken Price Record', 'twelve'),
];

function waitForSync(storeId: string) {
  return waitFor(
    async () => {
      const res = await t.admin('GET', `/admin/stores/${storeId}`);
      return res.body.store.sync.state !== 'running' && res.body.store;
    },
    { timeoutMs: 30_000, what: `the sync of ${storeId} to end`, intervalMs: 100 },
  );
}

/** A new store fed by the simulated sim-home.example shop, not synced yet. */
async function registerHome(): Promise<string> {
  const created = await t.admin('POST', '/admin/stores', {
    domain: uniqueDomain('sim-home'),
    base_url: sim.shopUrl('sim-home.example'),
  });
  expect(created.status).toBe(201);
  return created.body.store.id;
}

/** A new store holding sim-home.example's five good products. */
async function syncedHome(): Promise<string> {
  const storeId = await registerHome();
  await t.admin('POST', `/admin/stores/${storeId}/sync`, {});
  const store = await waitForSync(storeId);
  expect([store.sync.state, store.product_count]).toEqual(['succeeded', 5]);
  return storeId;
}

/** The store's product with this platform id: other stores in the database may reuse ids. */
async function storeProduct(storeId: string, externalId: string) {
  return t.database.db
    .select()
    .from(products)
    .where(and(eq(products.storeId, storeId), eq(products.externalId, externalId)));
}

beforeAll(async () => {
  process.env.OPERATOR_TOKEN = TOKEN;
  resetEnvCache();
  t = await startTestServer();
  sim = await startStoreSim({
    shops: [
      { domain: 'sim-home.example', name: 'Sim Home', products: catalogue },
      { domain: 'sim-other.example', products: [product(201, 'Cast Iron Pan', '40.00')] },
    ],
  });
});
afterAll(async () => {
  await sim?.close();
  await t?.close();
});
beforeEach(() => sim.reset());

describe('operator authentication', () => {
  it('answers 401 without the operator token or with a wrong one; a developer key is no token', async () => {
    const dev = await t.newDeveloper();
    const missing = await t.admin('GET', '/admin/stores', undefined, null);
    expect([missing.status, missing.body.code]).toEqual([401, 'AUTH_MISSING']);
    const wrong = await t.admin('GET', '/admin/stores', undefined, `${TOKEN}x`);
    expect([wrong.status, wrong.body.code]).toEqual([401, 'INVALID_KEY']);
    const devKey = await t.call('GET', '/admin/stores', { key: dev.key });
    expect(devKey.status).toBe(401);
  });

  it('answers 503 ADMIN_DISABLED when no OPERATOR_TOKEN is configured', async () => {
    delete process.env.OPERATOR_TOKEN;
    resetEnvCache();
    try {
      const res = await t.admin('GET', '/admin/stores', undefined, TOKEN);
      expect([res.status, res.body.code]).toEqual([503, 'ADMIN_DISABLED']);
      expect(res.body.error).toMatch(/OPERATOR_TOKEN/);
    } finally {
      process.env.OPERATOR_TOKEN = TOKEN;
      resetEnvCache();
    }
  });

  it('documents every operator route in OpenAPI under the operator token scheme', async () => {
    const doc = (await t.call('GET', '/openapi.json')).body;
    expect(doc.components.securitySchemes.OperatorToken).toMatchObject({ scheme: 'bearer' });
    for (const [path, method] of [
      ['/admin/stores', 'get'],
      ['/admin/stores', 'post'],
      ['/admin/stores/{id}', 'get'],
      ['/admin/stores/{id}/sync', 'post'],
      ['/admin/stores/{id}/sync-errors', 'get'],
      ['/admin/stores/{id}/policy', 'put'],
    ] as const) {
      expect(doc.paths[path]?.[method]?.security, `${method} ${path}`).toEqual([
        { OperatorToken: [] },
      ]);
    }
  });
});

describe('store registry', () => {
  it('registers a store with a normalized domain, lists and gets it, refuses duplicates', async () => {
    const domain = uniqueDomain('quiet-lamps');
    const created = await t.admin('POST', '/admin/stores', {
      domain: `HTTPS://${domain.toUpperCase()}/collections/all`,
    });
    expect(created.status).toBe(201);
    expect(created.body.code).toBe('STORE_CREATED');
    const store = created.body.store;
    expect(store).toMatchObject({
      domain,
      name: 'Quiet Lamps',
      platform: 'shopify',
      base_url: null,
      access_policy: 'open',
      allowed_developer_ids: [],
      verified: false,
      has_admin_token: false,
      product_count: 0,
      sync: { state: 'never', started_at: null, progress: null, last_error: null },
    });
    expect(store.id).toMatch(/^store_/);

    const again = await t.admin('POST', '/admin/stores', { domain });
    expect([again.status, again.body.code]).toEqual([409, 'STORE_EXISTS']);

    const listed = await t.admin('GET', '/admin/stores');
    expect(listed.body.stores.map((s: any) => s.id)).toContain(store.id);
    const got = await t.admin('GET', `/admin/stores/${store.id}`);
    expect(got.body).toEqual({ code: 'STORE_RETRIEVED', store });
    const missing = await t.admin('GET', '/admin/stores/store_nope');
    expect([missing.status, missing.body.code]).toEqual([404, 'STORE_NOT_FOUND']);
  });

  it('refuses invalid domains and base URLs with INVALID_REQUEST', async () => {
    for (const body of [
      { domain: 'localhost' },
      { domain: 'shop.example:8080' },
      { domain: 'bad domain.example' },
      { domain: 'ok.example', base_url: 'ftp://ok.example' },
      { name: 'no domain' },
    ]) {
      const res = await t.admin('POST', '/admin/stores', body);
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([400, 'INVALID_REQUEST']);
    }
  });

  it('sets an allow-list policy, refuses unknown developers, and reopens the store', async () => {
    const dev = await t.newDeveloper();
    const { store } = (await t.admin('POST', '/admin/stores', { domain: uniqueDomain('policy') }))
      .body;
    const allow = await t.admin('PUT', `/admin/stores/${store.id}/policy`, {
      policy: 'allow',
      developer_ids: [dev.id],
    });
    expect(allow.status).toBe(200);
    expect(allow.body.store).toMatchObject({
      access_policy: 'allow',
      allowed_developer_ids: [dev.id],
    });
    const unknown = await t.admin('PUT', `/admin/stores/${store.id}/policy`, {
      policy: 'allow',
      developer_ids: ['dev_missing'],
    });
    expect([unknown.status, unknown.body.code]).toEqual([400, 'INVALID_REQUEST']);
    expect(unknown.body.error).toMatch(/dev_missing/);
    const open = await t.admin('PUT', `/admin/stores/${store.id}/policy`, { policy: 'open' });
    expect(open.body.store).toMatchObject({ access_policy: 'open', allowed_developer_ids: [] });
    const bad = await t.admin('PUT', `/admin/stores/${store.id}/policy`, { policy: 'closed' });
    expect([bad.status, bad.body.code]).toEqual([400, 'INVALID_REQUEST']);
  });
});

describe('catalogue sync from products.json', () => {
  it('syncs through a 429 with Retry-After and a 500, skipping and reporting a bad record', async () => {
    const storeId = await registerHome();
    sim.inject([
      {
        match: { pathPrefix: '/products.json' },
        kind: 'status',
        status: 429,
        retryAfterSeconds: 1,
      },
      { match: { pathPrefix: '/products.json' }, kind: 'status', status: 500 },
    ]);
    const started = await t.admin('POST', `/admin/stores/${storeId}/sync`, {});
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({
      code: 'SYNC_STARTED',
      store: { sync: { state: 'running' } },
    });

    const store = await waitForSync(storeId);
    expect(store.sync).toMatchObject({ state: 'succeeded', last_error: null });
    expect(store.sync.progress).toEqual({
      pages: 1,
      seen: 6,
      added: 5,
      changed: 0,
      unchanged: 0,
      removed: 0,
      failed: 1,
      embedded: 5,
    });
    expect(store.product_count).toBe(5);
    const statuses = sim.requests('sim-home.example').map((r: any) => r.status);
    expect(statuses).toEqual([429, 500, 200]);

    const errors = await t.admin('GET', `/admin/stores/${storeId}/sync-errors`);
    expect(errors.body.code).toBe('SYNC_ERRORS_LISTED');
    expect(errors.body.errors).toEqual([
      {
        external_id: '106',
        message: expect.stringMatching(/price "twelve" is not a non-negative decimal/),
        created_at: expect.any(String),
      },
    ]);

    const db = t.database.db;
    const [board] = await storeProduct(storeId, '101');
    expect(board).toMatchObject({ title: 'Oak Cutting Board', priceMin: '35.00', available: true });
    const postings = await db
      .select({ term: searchPostings.term })
      .from(searchPostings)
      .where(eq(searchPostings.productId, board!.id));
    expect(postings.map((p) => p.term)).toEqual(expect.arrayContaining(['oak', 'board']));
    const vectors = await db
      .select()
      .from(productEmbeddings)
      .where(eq(productEmbeddings.productId, board!.id));
    expect(vectors).toHaveLength(1);
  });

  it('re-syncs incrementally: added, changed and removed products and variants, unchanged ones not re-embedded', async () => {
    const storeId = await syncedHome();
    const shopper = await t.newDeveloper();
    const find = async (text: string) =>
      (
        await t.call('POST', '/search/products', {
          key: shopper.key,
          body: { store_id: storeId, query: { text }, max_result_count: 5 },
        })
      ).body.product_ids as string[];
    // Searched before the re-sync, so the search index is loaded and must notice the change.
    expect(await find('wool throw blanket')).toEqual(['104']);
    expect(await find('cotton apron')).toEqual([]);
    sim.setProducts('sim-home.example', [
      product(101, 'Oak Cutting Board', '35.00', {
        variants: [{ id: 1012, title: 'Large', price: '45.00', available: true }],
      }),
      product(102, 'Linen Napkins, set of four', '18.50'),
      product(103, 'Stoneware Mug', '12.00'),
      product(105, 'Brass Candle Holder', '24.00'),
      product(107, 'Cotton Apron', '28.00', {
        variants: [
          { id: 1071, title: 'Blue', price: '28.00', available: true },
          { id: 1072, title: 'Red', price: '31.00', available: false },
        ],
      }),
    ]);
    // No body at all: the sync request's only field is optional.
    const started = await t.admin('POST', `/admin/stores/${storeId}/sync`);
    expect(started.status).toBe(202);
    const store = await waitForSync(storeId);
    expect(store.sync.state).toBe('succeeded');
    expect(store.sync.progress).toMatchObject({
      seen: 5,
      added: 1,
      changed: 2,
      unchanged: 2,
      removed: 1,
      failed: 0,
      embedded: 3,
    });
    expect(store.product_count).toBe(5);
    expect((await t.admin('GET', `/admin/stores/${storeId}/sync-errors`)).body.errors).toEqual([]);

    const db = t.database.db;
    expect(await storeProduct(storeId, '104')).toEqual([]);
    const [board] = await storeProduct(storeId, '101');
    expect(board).toMatchObject({ priceMin: '45.00', priceMax: '45.00' });
    const boardVariants = await db.select().from(variants).where(eq(variants.productId, board!.id));
    expect(boardVariants.map((v) => v.externalId)).toEqual(['1012']);
    const [apron] = await storeProduct(storeId, '107');
    expect(apron).toMatchObject({ priceMin: '28.00', priceMax: '31.00', available: true });
    const apronVariants = await db
      .select()
      .from(variants)
      .where(eq(variants.productId, apron!.id))
      .orderBy(variants.position);
    expect(apronVariants.map((v) => [v.externalId, v.price, v.available])).toEqual([
      ['1071', '28.00', true],
      ['1072', '31.00', false],
    ]);
    expect(await find('wool throw blanket')).toEqual([]);
    expect(await find('cotton apron')).toEqual(['107']);
    expect(await find('napkins set of four')).toEqual(['102']);
  });

  it('allows one sync per store at a time (SYNC_RUNNING)', async () => {
    const storeId = await registerHome();
    sim.inject({ match: { pathPrefix: '/products.json' }, kind: 'latency', delayMs: 1500 });
    const first = await t.admin('POST', `/admin/stores/${storeId}/sync`, {});
    expect(first.status).toBe(202);
    const second = await t.admin('POST', `/admin/stores/${storeId}/sync`, {});
    expect([second.status, second.body.code]).toEqual([409, 'SYNC_RUNNING']);
    expect((await waitForSync(storeId)).sync.state).toBe('succeeded');
  });

  it('records a sync running when the server stops as interrupted, and the next one runs', async () => {
    const storeId = await registerHome();
    sim.inject({ match: { pathPrefix: '/products.json' }, kind: 'latency', delayMs: 120_000 });
    const asked = () => sim.requests('sim-home.example').some((r) => r.path === '/products.json');
    expect((await t.admin('POST', `/admin/stores/${storeId}/sync`, {})).status).toBe(202);
    await waitFor(asked, { timeoutMs: 30_000, what: 'the request for the first page' });
    // What the server's stop on SIGTERM runs before it closes the database.
    await stopBackgroundWork();
    const stopped = (await t.admin('GET', `/admin/stores/${storeId}`)).body.store;
    expect(stopped.sync.state).toBe('interrupted');
    expect(stopped.sync.last_error).toMatch(/interrupted/);
    sim.reset();
    await t.admin('POST', `/admin/stores/${storeId}/sync`, {});
    expect((await waitForSync(storeId)).sync.state).toBe('succeeded');
  });

  it('fails a sync whose feed keeps failing, recording why and removing nothing', async () => {
    const storeId = await syncedHome();
    // A 404 is not transient: no retries, the sync fails at once.
    sim.inject({
      match: { domain: 'sim-home.example', pathPrefix: '/products.json' },
      kind: 'status',
      status: 404,
    });
    await t.admin('POST', `/admin/stores/${storeId}/sync`, {});
    const store = await waitForSync(storeId);
    expect(store.sync.state).toBe('failed');
    expect(store.sync.last_error).toMatch(/products\.json.*failed: HTTP 404/);
    expect(store.product_count).toBe(5);
  });

  it('saves a base_url override given with the sync request, and refuses a bad one', async () => {
    const other = (await t.admin('POST', '/admin/stores', { domain: uniqueDomain('sim-other') }))
      .body.store;
    const bad = await t.admin('POST', `/admin/stores/${other.id}/sync`, { base_url: 'not a url' });
    expect([bad.status, bad.body.code]).toEqual([400, 'INVALID_REQUEST']);
    const res = await t.admin('POST', `/admin/stores/${other.id}/sync`, {
      base_url: `${sim.shopUrl('sim-other.example')}/`,
    });
    expect(res.status).toBe(202);
    const store = await waitForSync(other.id);
    expect(store).toMatchObject({
      base_url: sim.shopUrl('sim-other.example'),
      product_count: 1,
      sync: { state: 'succeeded' },
    });
    const missing = await t.admin('POST', '/admin/stores/store_nope/sync', {});
    expect([missing.status, missing.body.code]).toEqual([404, 'STORE_NOT_FOUND']);
  });
});
