import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ingestPages } from '../../catalog/ingest';
import { queryPrepared } from '../../db/prepared';
import { setEnv } from '../../testing/env';
import { textEmbedder } from '../../embeddings/index';
import { adminProduct, titledProduct } from '../../testing/fixtures/admin-product';
import { createFixtureStore } from '../../testing/fixtures/catalogue';
import { startTestServer, type TestServer } from '../../testing/server';
import { resolveQueryTerms } from '../query/query-terms';
import { oneStoreScope } from '../results/store-scope';
import type { Candidate } from './candidate';
import { choosePlan, retrieveCandidates } from './plan';
import type { OneStore, RetrievalRequest } from './request';
import { clearStoreVectorsCache, storeNeighbours } from './store-vectors-cache';
import { clearTermPostingsCache } from './term-postings-cache';
import { neighboursQuery } from './vector-sql';

/**
 * A one-store search takes its lexical candidates from the postings cache and its text
 * neighbours from the store's cached vectors (plans/one-store-cached.ts): the same candidates as
 * the one statement that reads them in SQL, on every engine the suite runs on, and never a
 * vector the store has since changed. Made-up words keep other suites' rows out.
 */
let t: TestServer;
let dev: { id: string; key: string };
const stores: Array<{ id: string; productIds: number[] }> = [];

const catalogue = (base: number) => [
  titledProduct(base + 1, 'Quorridge Fennimax Tolt'),
  titledProduct(base + 2, 'Quorridge Fennimax'),
  titledProduct(base + 3, 'Quorridge Bawlish Tolt Tolt'),
  titledProduct(base + 4, 'Fennimax Bawlish Sprockle'),
  titledProduct(base + 5, 'Quorridge'),
  titledProduct(base + 6, 'Marrowind Sprockle Lantern'),
];

function cachesOf(mb: { postings: number; vectors: number }, loadAfter = 0) {
  setEnv({
    POSTINGS_CACHE_MB: String(mb.postings),
    STORE_VECTORS_CACHE_MB: String(mb.vectors),
    // These stores are small, and searched once: their vectors come from the cache all the same.
    STORE_VECTORS_MIN_PRODUCTS: '1',
    STORE_VECTORS_LOAD_AFTER: String(loadAfter),
  });
  clearTermPostingsCache();
  clearStoreVectorsCache();
}

beforeAll(async () => {
  t = await startTestServer();
  dev = await t.newDeveloper('free');
  for (const base of [8100, 8200]) {
    stores.push(
      await createFixtureStore(t.database.db, catalogue(base), {
        accessPolicy: 'allow',
        allowedDevelopers: [dev.id],
      }),
    );
  }
});
afterEach(() => {
  setEnv({
    POSTINGS_CACHE_MB: undefined,
    STORE_VECTORS_CACHE_MB: undefined,
    STORE_VECTORS_MIN_PRODUCTS: undefined,
    STORE_VECTORS_LOAD_AFTER: undefined,
  });
  clearTermPostingsCache();
  clearStoreVectorsCache();
});
afterAll(() => t?.close());

async function request(
  storeId: string,
  text: string,
  counts: { lexical: number; vector: number },
): Promise<RetrievalRequest> {
  const db = t.database.db;
  const provider = textEmbedder();
  const [vector] = await provider.embedTexts([text]);
  return {
    scope: await oneStoreScope(db, storeId),
    lexical: await resolveQueryTerms(db, text),
    text: { modelId: provider.modelId, dimensions: provider.dimensions, vector: vector! },
    style: vector,
    lexicalCandidates: counts.lexical,
    vectorCandidates: counts.vector,
  };
}

const byId = (a: Candidate, b: Candidate) => a.productId - b.productId;

/** The store's products nearest the query, nearest first, by SQL's exact scan. */
async function nearestInSql(req: RetrievalRequest): Promise<number[]> {
  const rows = await queryPrepared<{ product_id: string }>(
    t.database.db,
    neighboursQuery(req, 'text', req.text!),
  );
  return rows.map((r) => Number(r.product_id));
}

describe('one-store searches from the caches', () => {
  it('find the candidates of the one statement, with either cache or both', async () => {
    const db = t.database.db;
    const settings = [
      { postings: 64, vectors: 64 },
      { postings: 0, vectors: 64 },
      { postings: 64, vectors: 0 },
    ];
    for (const mb of settings) {
      cachesOf(mb);
      for (const store of stores) {
        for (const text of ['quorridge tolt', 'fennimax sprockle lantern', 'bawlish']) {
          for (const counts of [
            { lexical: 1, vector: 1 },
            { lexical: 2, vector: 3 },
            { lexical: 100, vector: 100 },
          ]) {
            const req = await request(store.id, text, counts);
            const name = `${text} ${JSON.stringify(counts)} ${JSON.stringify(mb)}`;
            expect(choosePlan(req, 'postgres'), name).toBe('oneStoreCached');
            const cached = (await retrieveCandidates(db, req, { plan: 'oneStoreCached' })).sort(
              byId,
            );
            const inSql = (await retrieveCandidates(db, req, { plan: 'oneStore' })).sort(byId);
            expect(cached, name).toEqual(inSql);
            expect(
              cached.every((c) => store.productIds.includes(c.productId)),
              name,
            ).toBe(true);
          }
        }
      }
    }
  });

  it("loads a store's vectors in parts, keeps them, and loads them again once a sync changes them", async () => {
    cachesOf({ postings: 64, vectors: 64 });
    const db = t.database.db;
    const target = await createFixtureStore(db, catalogue(8300), {
      accessPolicy: 'allow',
      allowedDevelopers: [dev.id],
    });
    const text = 'marrowind sprockle lantern';
    const neighbours = async () => {
      const req = await request(target.id, text, { lexical: 100, vector: 6 });
      return (await storeNeighbours(db, req, { loadRows: 2 })).productIds;
    };
    const first = await neighbours();
    expect(first).toEqual(
      await nearestInSql(await request(target.id, text, { lexical: 1, vector: 6 })),
    );
    expect(first[0]).toBe(target.productIds[5]);

    // A vector changed behind the index's back (no new version) is not seen: the cache holds it.
    // The nearest product's vector turned round is the farthest from the query.
    const versionBefore = ((await oneStoreScope(db, target.id)) as OneStore).vectorsVersion;
    await db.execute(sql`
      UPDATE product_embeddings
      SET embedding = array_fill(0::real, ARRAY[vector_dims(embedding)])::vector - embedding
      WHERE store_id = ${target.id} AND product_id = ${target.productIds[5]!} AND kind = 'text'`);
    expect(await neighbours()).toEqual(first);
    expect(((await oneStoreScope(db, target.id)) as OneStore).vectorsVersion).toBe(versionBefore);

    // A sync that re-titles another product as the query gives the store's vectors a new version,
    // and the search compares with the new vectors: that product first, the turned one last.
    const retitled = catalogue(8300).map((p) =>
      p.id === 8302 ? titledProduct(8302, 'Marrowind Sprockle Lantern') : p,
    );
    await ingestPages(db, target.id, [retitled.map(adminProduct)], { removeVanished: true });
    const versionAfter = ((await oneStoreScope(db, target.id)) as OneStore).vectorsVersion;
    expect(versionAfter).not.toBe(versionBefore);
    const afterSync = await neighbours();
    expect(afterSync).toEqual(
      await nearestInSql(await request(target.id, text, { lexical: 1, vector: 6 })),
    );
    expect(afterSync[0]).toBe(target.productIds[1]);
    expect(afterSync.at(-1)).toBe(target.productIds[5]);

    // A product the store no longer lists is gone from the neighbours.
    const fewer = retitled.filter((p) => p.id !== 8302);
    await ingestPages(db, target.id, [fewer.map(adminProduct)], { removeVanished: true });
    expect(((await oneStoreScope(db, target.id)) as OneStore).vectorsVersion).not.toBe(
      versionAfter,
    );
    const afterRemoval = await neighbours();
    expect(afterRemoval).toHaveLength(5);
    expect(afterRemoval).not.toContain(target.productIds[1]);
  });

  it("loads a store's vectors only at its search after STORE_VECTORS_LOAD_AFTER scanned in SQL", async () => {
    const db = t.database.db;
    const [store] = stores;
    const plansOf = async (searches: number) => {
      const plans: string[] = [];
      for (let i = 0; i < searches; i++) {
        const req = await request(store!.id, 'quorridge tolt', { lexical: 2, vector: 3 });
        const plan = choosePlan(req, 'postgres');
        // The run asks again; the search is counted once.
        if (plan === 'oneStore') expect(choosePlan(req, 'postgres')).toBe('oneStore');
        await retrieveCandidates(db, req);
        plans.push(plan);
      }
      return plans;
    };
    // Without the postings cache, only the vectors can make the plan oneStoreCached.
    cachesOf({ postings: 0, vectors: 64 }, 2);
    expect(await plansOf(4)).toEqual(['oneStore', 'oneStore', 'oneStoreCached', 'oneStoreCached']);
    cachesOf({ postings: 0, vectors: 64 }, 1);
    expect(await plansOf(2)).toEqual(['oneStore', 'oneStoreCached']);
    // Another store's searches count for that store alone.
    const other = await request(stores[1]!.id, 'quorridge tolt', { lexical: 2, vector: 3 });
    expect(choosePlan(other, 'postgres')).toBe('oneStore');
  });

  it('answer over HTTP as the SQL reads do', async () => {
    const search = async (text: string, storeId: string) => {
      const res = await t.call('POST', '/search/products', {
        key: dev.key,
        body: { query: { text }, store_id: storeId, max_result_count: 20 },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    for (const text of ['quorridge fennimax', 'sprockle']) {
      cachesOf({ postings: 0, vectors: 0 });
      const fromSql = await search(text, stores[0]!.id);
      expect(fromSql.product_ids.length).toBeGreaterThan(0);
      cachesOf({ postings: 64, vectors: 64 });
      expect(await search(text, stores[0]!.id)).toEqual(fromSql);
    }
  });
});
