import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveQueryTerms } from '../../search/query/query-terms';
import { createFixtureStore } from '../../testing/fixtures/catalogue';
import { startOwnTestServer } from '../../testing/own-database';
import type { TestServer } from '../../testing/server';
import { madeUpWord } from '../../testing/unique';
import { newProfile } from '../../testing/profiles';
import type { FixtureProduct } from '../../testing/fixtures/admin-product';

// The suite's free key sends more than a free plan's minute of searches; the limits have their
// own suite (rate-limit.test.ts).
process.env.RATE_LIMIT_FREE = '1000';

let t: TestServer;
let dev: { id: string; key: string };
let other: { id: string; key: string };
let store: { id: string; domain: string; name: string };
let closedStore: { id: string; domain: string };
let lampStore: { id: string; domain: string };

/** The maker of the copper pipes in this file's stores, and of no other product in the database. */
const BRAND = madeUpWord();

const catalogue: FixtureProduct[] = [
  {
    id: 7001,
    title: 'Copper Pipe 3/4 in. x 10 ft.',
    productType: 'Plumbing',
    vendor: BRAND,
    description: 'Type L copper pipe for water supply lines.',
    variants: [
      { id: 70011, price: '24.99', title: '10 ft' },
      { id: 70012, price: '49.50', title: '20 ft' },
    ],
  },
  {
    id: 7002,
    title: 'PVC Pipe 1/2 in. x 10 ft.',
    productType: 'Plumbing',
    variants: [{ id: 70021, price: '4.10' }],
  },
  {
    id: 7003,
    title: 'Cordless Drill 18-Volt',
    vendor: 'Toolmaker',
    productType: 'Power Tools',
    variants: [{ id: 70031, price: '89.00' }],
  },
  {
    id: 7004,
    title: 'Rustic Linen Table Lamp',
    productType: 'Lighting',
    tags: ['linen', 'natural', 'farmhouse'],
    variants: [{ id: 70041, price: '59.00' }],
  },
  {
    id: 7005,
    title: 'Modern Chrome Table Lamp',
    productType: 'Lighting',
    tags: ['chrome', 'metal', 'minimalist'],
    variants: [{ id: 70051, price: '61.00' }],
  },
  {
    id: 7006,
    title: 'Copper Pipe Fitting Elbow 3/4 in.',
    productType: 'Plumbing',
    vendor: BRAND,
    variants: [{ id: 70061, price: '3.25', available: false }],
  },
  {
    id: 7007,
    title: 'Garden Hose 50 ft.',
    productType: 'Outdoor',
    variants: [{ id: 70071, price: '29.00' }],
  },
  {
    id: 7008,
    title: 'Interior Latex Paint 1 gal. Eggshell White',
    productType: 'Paint',
    variants: [{ id: 70081, price: '34.98' }],
  },
];

const address = {
  first_name: 'Siobhán',
  last_name: "O'Brien & Co",
  email: 'siobhan+shop@example.com',
  phone: '+1 415 555 2671',
  address_1: '12 Rue de la Paix #4',
  city: 'San José',
  country_code: 'US',
  province_code: 'CA',
  postal_code: '95110',
};

function search(body: Record<string, unknown>, key: string | null = dev.key) {
  return t.call('POST', '/search/products', { key, body: { store_id: store.id, ...body } });
}

beforeAll(async () => {
  // A database of its own: the query is read by the catalogue's words and statistics, which
  // the wire suite's other files write to at the same time.
  t = await startOwnTestServer('search');
  dev = await t.newDeveloper('free');
  other = await t.newDeveloper('pro');
  store = await createFixtureStore(t.database.db, catalogue);
  closedStore = await createFixtureStore(t.database.db, catalogue.slice(0, 2), {
    accessPolicy: 'allow',
    allowedDevelopers: [other.id],
  });
  lampStore = await createFixtureStore(t.database.db, [
    {
      id: 9001,
      title: 'Copper Pipe 3/4 in. Type M',
      productType: 'Plumbing',
      vendor: BRAND,
      variants: [{ id: 90011, price: '19.00' }],
    },
  ]);
});
afterAll(() => t?.close());

describe('POST /search/products', () => {
  it('finds the best match first, in the contract shape, with checkout links', async () => {
    const res = await search({ query: { text: 'copper pipe' }, max_result_count: 5 });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe('SEARCH_SUCCESS');
    expect(res.body.product_ids[0]).toBe('7001');
    expect(res.body.product_ids).toEqual(res.body.results.map((r: { id: string }) => r.id));
    const [first] = res.body.results;
    expect(first).toMatchObject({
      id: '7001',
      title: 'Copper Pipe 3/4 in. x 10 ft.',
      product_type: 'Plumbing',
      description: 'Type L copper pipe for water supply lines.',
      store_id: store.id,
      store_name: store.name,
      store_domain: store.domain,
      options: [{ name: 'Size', values: ['One'] }],
    });
    expect(first.images).toEqual(['https://cdn.example.com/7001.jpg']);
    expect(first.variants[0]).toEqual({
      id: 70011,
      title: '10 ft',
      option1: 'One',
      option2: null,
      option3: null,
      price: '24.99',
      available: true,
      checkout_url: `https://${store.domain}/cart/70011:1`,
    });
  });

  it('returns two results by default and honours max_result_count and its alias result_count', async () => {
    const text = 'pipe';
    expect((await search({ query: { text } })).body.results).toHaveLength(2);
    expect((await search({ query: { text }, max_result_count: 1 })).body.results).toHaveLength(1);
    expect((await search({ query: { text }, result_count: 3 })).body.results).toHaveLength(3);
  });

  it('matches sizes and units written another way, and tolerates a typo', async () => {
    const units = await search({ query: { text: '3/4-inch copper pipes' } });
    expect(units.body.product_ids[0]).toBe('7001');
    const typo = await search({ query: { text: 'cordles dril' } });
    expect(typo.body.product_ids[0]).toBe('7003');
  });

  it('reads the query by the catalogue: a split word, a first-letter typo, a foot mark for inches', async () => {
    const split = await search({ query: { text: 'cordl ess drill' }, similarity_threshold: 0.8 });
    expect(split.body.product_ids).toEqual(['7003']);
    const typo = await search({
      query: { text: 'vopper pipe' },
      similarity_threshold: 0.6,
      max_result_count: 5,
    });
    expect(typo.body.product_ids).toEqual(['7001', '7006']);
    const mark = await search({
      query: { text: "3/4' pipe" },
      similarity_threshold: 0.8,
      max_result_count: 5,
    });
    expect(mark.body.product_ids).toEqual(['7001', '7006']);
  });

  it('corrects a typo in the second letter, or the first two letters swapped', async () => {
    for (const text of ['cipper pipe', 'ocpper pipe']) {
      const typo = await search({
        query: { text },
        similarity_threshold: 0.6,
        max_result_count: 5,
      });
      expect(typo.body.product_ids, text).toEqual(['7001', '7006']);
    }
  });

  it('reads an unknown word that no typo explains as two known words glued', async () => {
    const glued = await search({
      query: { text: 'copperpipe' },
      similarity_threshold: 0.6,
      max_result_count: 5,
    });
    expect(glued.body.product_ids).toEqual(['7001', '7006']);
    // A part the query holds already counts once.
    const lexical = await resolveQueryTerms(t.database.db, 'pipe copperpipe');
    expect(lexical.terms.map((term) => term.term)).toEqual(['pipe', 'copper']);
  });

  it('answers NO_RESULTS_FOUND with empty arrays when nothing clears the threshold', async () => {
    const res = await search({ query: { text: 'xylophone quartz zeppelin' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ results: [], product_ids: [], code: 'NO_RESULTS_FOUND' });
  });

  it('cuts on similarity_threshold', async () => {
    const loose = await search({
      query: { text: 'copper pipe' },
      similarity_threshold: 0,
      max_result_count: 20,
    });
    const strict = await search({
      query: { text: 'copper pipe' },
      similarity_threshold: 0.8,
      max_result_count: 20,
    });
    expect(loose.body.results.length).toBeGreaterThan(strict.body.results.length);
    expect(strict.body.product_ids).toContain('7001');
    const none = await search({ query: { text: 'copper pipe' }, similarity_threshold: 1 });
    expect(none.body.code).toBe('NO_RESULTS_FOUND');
  });

  it('filters by price through variants, keeping only the variants in range', async () => {
    const res = await search({
      query: { text: 'copper pipe' },
      price_min: '30',
      price_max: 60,
      max_result_count: 10,
    });
    expect(res.body.product_ids).toEqual(['7001']);
    expect(res.body.results[0].variants.map((v: { id: number }) => v.id)).toEqual([70012]);
  });

  it('drops excluded variants, then products left without variants', async () => {
    const res = await search({
      query: { text: 'copper pipe' },
      exclude_variant_ids: ['70011', 70061],
      max_result_count: 10,
    });
    expect(res.body.product_ids).toContain('7001');
    expect(res.body.product_ids).not.toContain('7006');
    const copper = res.body.results.find((r: { id: string }) => r.id === '7001');
    expect(copper.variants.map((v: { id: number }) => v.id)).toEqual([70012]);
  });

  it('ranks available products ahead of unavailable ones', async () => {
    const res = await search({
      query: { text: 'copper pipe fitting elbow' },
      max_result_count: 5,
      similarity_threshold: 0.1,
    });
    expect(res.body.product_ids).toContain('7006');
    expect(res.body.product_ids.at(-1)).toBe('7006');
  });

  it('finds the store by store_domain, and answers STORE_NOT_FOUND for unknown or closed stores', async () => {
    const byDomain = await t.call('POST', '/search/products', {
      key: dev.key,
      body: { store_domain: store.domain, query: { text: 'garden hose' } },
    });
    expect(byDomain.body.product_ids).toEqual(['7007']);
    for (const body of [
      { store_id: 'store_missing' },
      { store_domain: 'nowhere.example.com' },
      { store_id: closedStore.id },
    ]) {
      const res = await t.call('POST', '/search/products', {
        key: dev.key,
        body: { ...body, query: { text: 'pipe' } },
      });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'STORE_NOT_FOUND', results: [], product_ids: [] });
      expect(typeof res.body.error).toBe('string');
      expect(typeof res.body.message).toBe('string');
    }
    // The store's allow-list opens it, by id and by domain alike.
    for (const named of [{ store_id: closedStore.id }, { store_domain: closedStore.domain }]) {
      const listed = await t.call('POST', '/search/products', {
        key: other.key,
        body: { ...named, query: { text: 'pipe' } },
      });
      expect(listed.status).toBe(200);
      expect(new Set(listed.body.results.map((r: { store_id: string }) => r.store_id))).toEqual(
        new Set([closedStore.id]),
      );
    }
  });

  it('searches every store open to the caller when no store is named', async () => {
    // Other test files' stores share the database: only this file's products carry BRAND.
    const acrossStores = (key: string) =>
      t.call('POST', '/search/products', {
        key,
        body: { query: { text: BRAND }, max_result_count: 10 },
      });
    const storesOf = (body: { results: Array<{ store_id: string }> }) =>
      new Set(body.results.map((r) => r.store_id));
    const across = await acrossStores(dev.key);
    expect(across.status).toBe(200);
    expect(storesOf(across.body)).toEqual(new Set([store.id, lampStore.id]));
    expect([...across.body.product_ids].sort()).toEqual(['7001', '7006', '9001']);
    expect(across.body.product_ids.at(-1)).toBe('7006');
    for (const r of across.body.results) {
      const domain = r.store_id === store.id ? store.domain : lampStore.domain;
      expect(r.store_domain).toBe(domain);
      expect(r.variants[0].checkout_url.startsWith(`https://${domain}/cart/`)).toBe(true);
    }
    const allowed = await acrossStores(other.key);
    expect(storesOf(allowed.body)).toEqual(new Set([store.id, closedStore.id, lampStore.id]));
  });

  it('answers INVALID_REQUEST with error and message for bad input', async () => {
    const bad: Array<Record<string, unknown>> = [
      {},
      { query: {} },
      { query: { text: '' } },
      { query: { text: 'pipe' }, similarity_threshold: 1.5 },
      { query: { text: 'pipe' }, query_weight: -0.1 },
      { query: { text: 'pipe' }, style_weight: 'heavy' },
      { query: { text: 'pipe' }, max_result_count: 0 },
      { query: { text: 'pipe' }, max_result_count: 2.5 },
      { query: { text: 'pipe' }, max_result_count: 101 },
      { query: { text: 'pipe' }, price_min: 'cheap' },
      { query: { text: 'pipe' }, price_min: 50, price_max: 10 },
      { query: { text: 'pipe' }, store_id: '' },
    ];
    for (const body of bad) {
      const res = await search(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('INVALID_REQUEST');
      expect(res.body.error).toEqual(expect.any(String));
      expect(res.body.message).toEqual(expect.any(String));
    }
    const raw = await t.call('POST', '/search/products', { key: dev.key, body: '{not json' });
    expect(raw.body.code).toBe('INVALID_REQUEST');
  });

  it('names each invalid field once, with words a person understands', async () => {
    const weight = await search({ query: { text: 'pipe' }, query_weight: 3 });
    expect(weight.body.message).toBe('query_weight must be between 0 and 1');
    expect(weight.body.issues).toEqual([
      { path: 'query_weight', message: 'must be between 0 and 1' },
    ]);
    const style = await search({ query: { text: 'pipe' }, style_weight: 'heavy' });
    expect(style.body.message).toBe('style_weight must be a number');
    const profile = await search({ query: { text: 'pipe' }, profile_id: true });
    expect(profile.body.message).toBe('profile_id must be a string or a number');
    const missing = await t.call('POST', '/search', {
      key: dev.key,
      body: { q: 'pipe', store_id: store.id },
    });
    expect(missing.body.issues).toEqual([{ path: 'user_id', message: 'is required' }]);
  });

  it('answers AUTH_MISSING and INVALID_KEY', async () => {
    expect((await search({ query: { text: 'pipe' } }, null)).body.code).toBe('AUTH_MISSING');
    const wrong = await search({ query: { text: 'pipe' } }, 'csk_AAAAAAAA_' + 'B'.repeat(32));
    expect(wrong.body.code).toBe('INVALID_KEY');
  });

  it('answers PROFILE_NOT_FOUND for an unknown profile or another developer’s', async () => {
    const theirs = await newProfile(t, other.key);
    for (const profile_id of ['prof_missing', theirs]) {
      const res = await search({ query: { text: 'pipe' }, profile_id });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('PROFILE_NOT_FOUND');
      expect(res.body.message).toEqual(expect.any(String));
    }
  });

  it('refuses image search on the free plan with FORBIDDEN_FEATURE naming the plan', async () => {
    const res = await search({
      query: { text: 'lamp', image_url: 'https://cdn.example.com/lamp.jpg' },
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('FORBIDDEN_FEATURE');
    expect(res.body.error).toMatch(/pro/);
  });

  it('lets a profile’s style change the order', async () => {
    const rustic = await newProfile(t, dev.key);
    const modern = await newProfile(t, dev.key);
    for (const [profile_id, text] of [
      [rustic, 'rustic farmhouse, natural linen fabrics, earthy textures'],
      [modern, 'sleek modern chrome and polished metal, minimalist'],
    ]) {
      const res = await t.call('POST', '/styles/create', {
        key: dev.key,
        body: { profile_id, text },
      });
      expect(res.status).toBe(201);
    }
    const ask = (profile_id: string) =>
      search({
        query: { text: 'table lamp' },
        profile_id,
        query_weight: 0.3,
        style_weight: 0.7,
        similarity_threshold: 0,
      });
    expect((await ask(rustic)).body.product_ids.slice(0, 2)).toEqual(['7004', '7005']);
    expect((await ask(modern)).body.product_ids.slice(0, 2)).toEqual(['7005', '7004']);
  });

  it('adds checkout_url_with_shipping only for a profile with an attached address', async () => {
    const bare = await newProfile(t, dev.key);
    const withBare = await search({ query: { text: 'garden hose' }, profile_id: bare });
    expect(withBare.body.results[0].variants[0].checkout_url_with_shipping).toBeUndefined();

    const shipped = await newProfile(t, dev.key);
    const created = await t.call('POST', '/shipping/create', {
      key: dev.key,
      body: { profile_id: shipped, shipping_address: address },
    });
    expect(created.status).toBe(201);
    const res = await search({ query: { text: 'garden hose' }, profile_id: shipped });
    const variant = res.body.results[0].variants[0];
    expect(variant.checkout_url).toBe(`https://${store.domain}/cart/70071:1`);
    const url = new URL(variant.checkout_url_with_shipping);
    expect(`${url.origin}${url.pathname}`).toBe(`https://${store.domain}/cart/70071:1`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      'checkout[email]': 'siobhan+shop@example.com',
      'checkout[shipping_address][first_name]': 'Siobhán',
      'checkout[shipping_address][last_name]': "O'Brien & Co",
      'checkout[shipping_address][address1]': '12 Rue de la Paix #4',
      'checkout[shipping_address][city]': 'San José',
      'checkout[shipping_address][province]': 'CA',
      'checkout[shipping_address][country]': 'US',
      'checkout[shipping_address][zip]': '95110',
    });
    // Characters that would break the query string are percent- or plus-encoded.
    expect(url.search).toContain('siobhan%2Bshop%40example.com');
    expect(url.search).toContain('O%27Brien+%26+Co');
  });
});

describe('POST /search (legacy)', () => {
  let user: string;
  beforeAll(async () => {
    user = await newProfile(t, dev.key);
  });

  function legacy(body: Record<string, unknown>, key: string | null = dev.key) {
    return t.call('POST', '/search', { key, body: { store_id: store.id, user_id: user, ...body } });
  }

  it('returns the platform product shape with typed ids, tags and prices', async () => {
    const res = await legacy({ q: 'table lamp' });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe('SEARCH_SUCCESS');
    const lamp = res.body.results.find((r: { id: string }) => r.id === '7004');
    expect(lamp).toEqual({
      id: '7004',
      title: 'Rustic Linen Table Lamp',
      description: null,
      product_type: 'Lighting',
      tags: 'linen, natural, farmhouse',
      options: [{ id: 70040, product_id: 7004, name: 'Size', position: 1, values: ['One'] }],
      images: [
        {
          id: 700400,
          alt: 'Rustic Linen Table Lamp',
          position: 1,
          product_id: 7004,
          created_at: '2026-01-01T00:00:00-05:00',
          updated_at: '2026-01-01T00:00:00-05:00',
          admin_graphql_api_id: 'gid://shopify/ProductImage/700400',
          width: 800,
          height: 600,
          src: 'https://cdn.example.com/7004.jpg',
          variant_ids: [],
        },
      ],
      variants: [{ id: 70041, title: 'Default Title', price: '59.00' }],
    });
  });

  it('filters by integer price bounds', async () => {
    const res = await legacy({ q: 'pipe', price_min: 20, price_max: '30' });
    expect(res.body.results.map((r: { id: string }) => r.id)).toEqual(['7001']);
  });

  it('answers NO_RESULTS_FOUND with an empty list', async () => {
    const res = await legacy({ q: 'xylophone quartz zeppelin' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ results: [], code: 'NO_RESULTS_FOUND' });
  });

  it('answers BAD_REQUEST_ERROR for invalid input and for a user that is not the caller’s', async () => {
    const theirs = await newProfile(t, other.key);
    for (const body of [
      { q: '' },
      { q: 'pipe', price_min: 0 },
      { q: 'pipe', price_max: 2.5 },
      { q: 'pipe', user_id: undefined },
      { q: 'pipe', user_id: theirs },
      { q: 'pipe', user_id: 'prof_missing' },
    ]) {
      const res = await legacy(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('BAD_REQUEST_ERROR');
      expect(res.body.error).toEqual(expect.any(String));
      expect(res.body.message).toEqual(expect.any(String));
    }
  });

  it('answers STORE_NOT_FOUND, FORBIDDEN, AUTH_MISSING and INVALID_KEY', async () => {
    const missing = await legacy({ q: 'pipe', store_id: 'store_missing' });
    expect([missing.status, missing.body.code]).toEqual([404, 'STORE_NOT_FOUND']);
    const closed = await legacy({ q: 'pipe', store_id: closedStore.id });
    expect([closed.status, closed.body.code]).toEqual([403, 'FORBIDDEN']);
    expect(closed.body.message).toEqual(expect.any(String));
    expect((await legacy({ q: 'pipe' }, null)).body.code).toBe('AUTH_MISSING');
    const wrong = await legacy({ q: 'pipe' }, 'csk_AAAAAAAA_' + 'B'.repeat(32));
    expect(wrong.body.code).toBe('INVALID_KEY');
  });
});
