import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimStore, runClaimedJob } from '../catalog/store-job';
import { ingestPages } from '../catalog/ingest';
import { resetEnvCache } from '../config/env';
import { newId } from '../db/ids';
import { startOrderReconciler } from '../orders/reconciler';
import { adminProduct } from '../testing/fixtures/admin-product';
import { createFixtureStore } from '../testing/fixtures/catalogue';
import { startOwnTestServer } from '../testing/own-database';
import type { TestServer } from '../testing/server';

/**
 * Issue 49: GET /api/metrics in Prometheus's text format, for the operator only (unless
 * METRICS_PUBLIC=1). Requests and searches made through the API show in its counters and
 * histograms under route patterns and stage names; orders and syncs are read from the database.
 */

const TOKEN = 'operator-token-for-metrics-0123456789';
process.env.OPERATOR_TOKEN = TOKEN;
process.env.RATE_LIMIT_FREE = '2';
resetEnvCache();

let t: TestServer;
let key: string;
let domain: string;
let storeId: string;
let syncedDomain: string;

const product = (id: number, title: string) => ({
  id,
  title,
  variants: [{ id: id * 10, price: '19.90' }],
});

beforeAll(async () => {
  t = await startOwnTestServer('metrics');
  key = (await t.newDeveloper('pro')).key;
  const db = t.database.db;
  ({ domain, id: storeId } = await createFixtureStore(db, [product(7001, 'Linen Summer Shirt')]));
  // A sync as a store job runs it, so that the store's sync state and counts are recorded.
  const synced = await createFixtureStore(db, []);
  syncedDomain = synced.domain;
  await claimStore(db, synced.id);
  await runClaimedJob(db, synced.id, (latest) =>
    ingestPages(
      db,
      synced.id,
      (function* () {
        yield [adminProduct(product(7101, 'Wool Socks')), adminProduct(product(7102, 'Tote'))];
      })(),
      { removeVanished: true, onProgress: latest },
    ),
  );
  await db.execute(sql`
    INSERT INTO orders (id, store_id, request_hash, status, lines, shipping, lease_owner, lease_until)
    VALUES (${newId('ord')}, ${synced.id}, 'h1', 'created', '[]', '{}', NULL, NULL),
           (${newId('ord')}, ${synced.id}, 'h2', 'pending', '[]', '{}', 'elsewhere', now() + interval '1 hour')`);
});
afterAll(() => t?.close());

async function scrape(headers: Record<string, string> = { 'x-operator-token': TOKEN }) {
  const res = await fetch(`${t.baseUrl}/metrics`, { headers });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

/** The value of one sample, by its name and labels as Prometheus prints them. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = text
    .split('\n')
    .find(
      (l) =>
        (l.startsWith(`${name}{`) || l.startsWith(`${name} `)) &&
        wanted.every((w) => l.includes(w)),
    );
  return line === undefined ? Number.NaN : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('GET /api/metrics', () => {
  it('answers only the operator token in X-Operator-Token, in the API failure shape', async () => {
    const none = await scrape({});
    expect(none.status).toBe(401);
    expect(JSON.parse(none.text)).toMatchObject({ code: 'AUTH_MISSING' });
    const wrong = await scrape({ 'x-operator-token': 'not-the-token-at-all-0000' });
    expect([wrong.status, JSON.parse(wrong.text).code]).toEqual([401, 'INVALID_KEY']);
    const ok = await scrape();
    expect(ok.status).toBe(200);
    expect(ok.type).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('answers anyone with METRICS_PUBLIC=1', async () => {
    process.env.METRICS_PUBLIC = '1';
    resetEnvCache();
    try {
      expect((await scrape({})).status).toBe(200);
    } finally {
      delete process.env.METRICS_PUBLIC;
      resetEnvCache();
    }
  });

  it('counts requests by route pattern and status, with their latency', async () => {
    const created = await t.call('POST', '/profiles/create', { key });
    const id = created.body.profile.id as string;
    await t.call('GET', `/profiles/${id}`, { key });
    await t.call('GET', '/profiles/prof_missing', { key });
    const { text } = await scrape();
    const route = '/api/profiles/:id';
    expect(sample(text, 'http_requests_total', { route, status: '200' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'http_requests_total', { route, status: '404' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(id);
    expect(
      sample(text, 'http_request_duration_seconds_count', { route, method: 'GET', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0.1",method="GET"/);
  });

  it('times each search stage and counts results and zero-result searches', async () => {
    const before = sample((await scrape()).text, 'search_zero_results_total', {
      operation: 'search_products',
    });
    const found = await t.call('POST', '/search/products', {
      key,
      body: { query: { text: 'linen shirt' } },
    });
    expect(found.body.results.length).toBeGreaterThan(0);
    await t.call('POST', '/search/products', {
      key,
      body: { query: { text: 'linen shirt' }, price_min: 5000 },
    });
    const profile = (await t.call('POST', '/profiles/create', { key })).body.profile.id as string;
    const legacy = await t.call('POST', '/search', {
      key,
      body: { q: 'linen', store_id: storeId, user_id: profile },
    });
    expect(legacy.status).toBe(200);
    const { text } = await scrape();
    for (const stage of [
      'query_terms',
      'embed_query',
      'retrieve_candidates',
      'rank_candidates',
      'load_products',
    ]) {
      expect(
        sample(text, 'search_stage_duration_seconds_count', { stage }),
        stage,
      ).toBeGreaterThanOrEqual(1);
    }
    expect(
      sample(text, 'search_results_count', { operation: 'search_products' }),
    ).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'search_results_count', { operation: 'legacy_search' })).toBeGreaterThan(0);
    expect(
      sample(text, 'search_zero_results_total', { operation: 'search_products' }) -
        (Number.isNaN(before) ? 0 : before),
    ).toBe(1);
    expect(sample(text, 'embedding_model_duration_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'embedding_queue_depth')).toBe(0);
  });

  it('reads orders, syncs and the image backlog from the database', async () => {
    const { text } = await scrape();
    expect(sample(text, 'orders', { status: 'created' })).toBe(1);
    expect(sample(text, 'orders', { status: 'pending' })).toBe(1);
    expect(sample(text, 'orders_oldest_pending_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'catalog_sync_state', { store: syncedDomain, state: 'succeeded' })).toBe(1);
    expect(sample(text, 'catalog_sync_progress', { store: syncedDomain, count: 'added' })).toBe(2);
    expect(sample(text, 'catalog_sync_errors', { store: syncedDomain })).toBe(0);
    expect(sample(text, 'catalog_sync_state', { store: domain, state: 'never' })).toBe(1);
    expect(sample(text, 'image_queue_pending')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'database_scrape_up')).toBe(1);
    expect(sample(text, 'database_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
  });

  it('counts reconciler passes, rate-limited requests and the process defaults', async () => {
    const reconciler = startOrderReconciler(t.database.db, { intervalMs: 3_600_000 });
    await reconciler.runOnce();
    await reconciler.stop();
    const free = (await t.newDeveloper('free')).key;
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await t.call('GET', '/stores', { key: free })).status);
    expect(statuses).toContain(429);
    const { text } = await scrape();
    expect(sample(text, 'order_reconciler_passes_total', { result: 'ok' })).toBeGreaterThanOrEqual(
      1,
    );
    expect(sample(text, 'rate_limited_requests_total', { plan: 'free' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_heap_size_total_bytes')).toBeGreaterThan(0);
  });
});
