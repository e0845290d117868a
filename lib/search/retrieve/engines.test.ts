import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { isCitus } from '../../db/engine';
import { explainPlan } from '../../testing/plan';
import { startTestServer, type TestServer } from '../../testing/server';
import { resolveQueryTerms } from '../query/query-terms';
import { productRowsQuery } from '../results/product-results';
import { textEmbedder } from '../../embeddings/index';
import { candidateRowsQuery } from './candidate-rows';
import { bestPostingsOfStore, pickedCandidatesCte, postingsFromFloor } from './lexical-sql';
import { choosePlan, retrieveCandidates } from './plan';
import { oneStatementQuery } from './plans/in-sql';
import type { RetrievalRequest } from './request';
import { neighboursQuery, type QueryVectorForm } from './vector-sql';
import { termPostings } from './term-postings-cache';
import { createFixtureStore } from '../../testing/fixtures/catalogue';
import type { FixtureProduct } from '../../testing/fixtures/admin-product';

/**
 * The same searches answer the same ranking on every engine this suite runs on (in-process
 * PGlite, PGlite over the wire, PostgreSQL, Citus): one SQL ranking path, checked against one
 * expected answer. The catalogue's words are made up, so that rows other suites put in a shared
 * database never match them, and the threshold keeps out products only the vector side found.
 */
let t: TestServer;
let dev: { id: string; key: string };
const stores: Array<{ id: string; productIds: number[] }> = [];

const product = (id: number, title: string, price: string, tags: string[] = []) => ({
  id,
  title,
  tags,
  variants: [{ id: id * 10 + 1, price }],
});

const catalogues: FixtureProduct[][] = [
  [
    product(5101, 'Zorbik Quellan Lumtrax', '40.00', ['lighting']),
    product(5102, 'Zorbik Lumtrax Sholvet', '12.00'),
    product(5103, 'Quellan Florn Lumtrax Zorbik Brassik', '95.00'),
    product(5104, 'Velmora Thrombel Blanquet', '30.00'),
  ],
  [
    product(5201, 'Quellan Deskar Lumtrax', '25.00'),
    product(5202, 'Zorbik Quellan Lumtrax Pairon', '70.00', ['zorbik']),
    product(5203, 'Velmora Cushvel Covrin', '15.00'),
  ],
  [product(5301, 'Velmora Quellan Ruggat', '120.00'), product(5302, 'Zorbik Candrel', '8.00')],
];

beforeAll(async () => {
  t = await startTestServer();
  dev = await t.newDeveloper('free');
  // Open to this run's developer alone: copies left by earlier runs in a kept database stay out.
  for (const items of catalogues) {
    stores.push(
      await createFixtureStore(t.database.db, items, {
        accessPolicy: 'allow',
        allowedDevelopers: [dev.id],
      }),
    );
  }
});
afterAll(() => t?.close());

async function ranking(body: Record<string, unknown>): Promise<string[]> {
  const res = await t.call('POST', '/search/products', {
    key: dev.key,
    body: { similarity_threshold: 0.2, max_result_count: 20, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.product_ids;
}

describe('one ranking on every engine', () => {
  it('answers the expected ranking across all stores and in one store', async () => {
    // The title that is the query, word for word, first: its text vector is the query's own.
    expect(await ranking({ query: { text: 'zorbik quellan lumtrax' } })).toEqual([
      '5101',
      '5202',
      '5103',
      '5102',
      '5201',
      '5302',
      '5301',
    ]);
    expect(
      await ranking({ query: { text: 'zorbik quellan lumtrax' }, store_id: stores[1]!.id }),
    ).toEqual(['5202', '5201']);
    expect(await ranking({ query: { text: 'velmora' } })).toEqual(['5203', '5301', '5104']);
    // The learned ranker puts the title holding "quellan lumtrax" as a phrase first.
    expect(await ranking({ query: { text: 'quelan lumtrax' }, price_max: 50 })).toEqual([
      '5101',
      '5201',
      '5102',
    ]);
  });

  it('finds the same candidates whether the statement shares its query vector or repeats it at each use', async () => {
    const db = t.database.db;
    const words = 'zorbik quellan lumtrax';
    const provider = textEmbedder();
    const [vector] = await provider.embedTexts([words]);
    const rows = async (vectors: QueryVectorForm) => {
      const [row] = await queryRows<{ rows: string }>(
        db,
        oneStatementQuery(
          {
            // Sized past the exact scan's bound, so that the neighbours come from the HNSW walk.
            scope: { storeId: stores[0]!.id, storeDocs: 1_000_000, vectorsVersion: 0 },
            lexical: await resolveQueryTerms(db, words),
            text: { modelId: provider.modelId, dimensions: provider.dimensions, vector: vector! },
            style: vector,
            lexicalCandidates: 100,
            vectorCandidates: 4,
          },
          vectors,
          bestPostingsOfStore,
        ),
      );
      return (JSON.parse(row!.rows) as unknown[][]).map((r) => JSON.stringify(r)).sort();
    };
    const shared = await rows('shared');
    expect(await rows('inline')).toEqual(shared);
    // Every product of the store (the one no word matches from the walk), each with its cosines.
    const candidates = shared.map((r) => JSON.parse(r) as unknown[]).filter((r) => r[0] === 0);
    const byId = (a: unknown, b: unknown) => Number(a) - Number(b);
    expect(candidates.map((r) => r[2]).sort(byId)).toEqual([...stores[0]!.productIds].sort(byId));
    for (const r of candidates) {
      expect([r[8], r[10]]).toEqual([expect.any(Number), expect.any(Number)]);
    }
  });
});

describe('the neighbours read apart (as on Citus)', () => {
  it('gives the candidates and signals of the one statement', async () => {
    const db = t.database.db;
    const words = 'zorbik quellan lumtrax';
    const provider = textEmbedder();
    const [vector] = await provider.embedTexts([words]);
    const lexical = await resolveQueryTerms(db, words);
    // The neighbours are read apart only when the lexical candidates come from the cache.
    expect(await termPostings(db, lexical.terms)).toBeDefined();
    const ours = new Set(stores.map((s) => s.id));
    const all = await queryRows<{ id: string }>(db, sql`SELECT id FROM stores`);
    const req: RetrievalRequest = {
      // This file's stores only: rows other suites left may hold equal vectors, whose order at
      // the neighbours' cut is arbitrary in either form.
      scope: { excludeStoreIds: all.map((r) => r.id).filter((id) => !ours.has(id)) },
      lexical,
      text: { modelId: provider.modelId, dimensions: provider.dimensions, vector: vector! },
      style: vector,
      lexicalCandidates: 100,
      // Every product in scope, so that those no query word names come in as neighbours.
      vectorCandidates: stores.flatMap((s) => s.productIds).length,
    };
    const byId = (a: { productId: number }, b: { productId: number }) => a.productId - b.productId;
    expect(choosePlan(req, 'postgres')).toBe('allStoresCached');
    expect(choosePlan(req, 'citus')).toBe('citusTwoStep');
    const inOne = (await retrieveCandidates(db, req, { plan: 'allStoresCached' })).sort(byId);
    const apart = (await retrieveCandidates(db, req, { plan: 'citusTwoStep' })).sort(byId);
    expect(apart).toEqual(inOne);
    // The products no query word names came in as neighbours, with their cosines.
    const unmatched = inOne.filter((c) => c.matched.length === 0);
    expect(unmatched.length).toBeGreaterThan(0);
    for (const c of unmatched) expect(c.textCosine).toEqual(expect.any(Number));
  });
});

describe('Citus layout', () => {
  it('distributes the catalogue by store, co-located, and routes a one-store search and its rows to one shard', async (ctx) => {
    if (!(await isCitus(t.database.db))) ctx.skip();
    const db = t.database.db;
    const layout = await queryRows<{
      table_name: string;
      citus_table_type: string;
      distribution_column: string;
      colocation_id: number;
    }>(
      db,
      sql`SELECT table_name::text, citus_table_type, distribution_column, colocation_id
          FROM citus_tables ORDER BY table_name::text`,
    );
    const byName = new Map(layout.map((r) => [r.table_name, r]));
    const catalogue = ['products', 'variants', 'product_embeddings', 'search_postings'];
    for (const name of catalogue) {
      expect(byName.get(name), name).toMatchObject({
        citus_table_type: 'distributed',
        distribution_column: 'store_id',
      });
    }
    expect(new Set(catalogue.map((n) => byName.get(n)!.colocation_id)).size).toBe(1);
    for (const name of ['stores', 'store_allowed_developers', 'developers']) {
      expect(byName.get(name)?.citus_table_type, name).toBe('reference');
    }

    const lexical = await resolveQueryTerms(db, 'zorbik quellan lumtrax');
    const one = await explainPlan(
      db,
      oneStatementQuery(
        {
          scope: { storeId: stores[0]!.id, storeDocs: 4, vectorsVersion: 0 },
          lexical,
          lexicalCandidates: 100,
          vectorCandidates: 50,
        },
        'inline',
        bestPostingsOfStore,
      ),
    );
    expect(one).toMatch(/Task Count: 1\b/);
    expect(one).not.toMatch(/Distributed Subplan/);
    // Its candidates found in the caches, given to the statement, route it the same way.
    const given = { storeIds: [stores[0]!.id], productIds: [stores[0]!.productIds[0]!] };
    const fromCaches = await explainPlan(
      db,
      candidateRowsQuery(
        {
          scope: { storeId: stores[0]!.id, storeDocs: 4, vectorsVersion: 0 },
          lexical,
          text: {
            modelId: textEmbedder().modelId,
            dimensions: textEmbedder().dimensions,
            vector: Array.from({ length: textEmbedder().dimensions }, (_, i) => Math.cos(i)),
          },
          lexicalCandidates: 100,
          vectorCandidates: 50,
        },
        'inline',
        { lexicalCte: pickedCandidatesCte(given), textNeighbours: given },
        [],
      ),
    );
    expect(fromCaches).toMatch(/Task Count: 1\b/);
    expect(fromCaches).not.toMatch(/Distributed Subplan/);
    const all = await explainPlan(
      db,
      oneStatementQuery(
        { scope: { excludeStoreIds: [] }, lexical, lexicalCandidates: 100, vectorCandidates: 50 },
        'inline',
        postingsFromFloor,
      ),
    );
    const shards = Math.max(...[...all.matchAll(/Task Count: (\d+)/g)].map((m) => Number(m[1])));
    expect(shards).toBeGreaterThan(1);

    // A query vector shared through a CTE costs a distributed step of its own; inline, none.
    const provider = textEmbedder();
    const text = {
      modelId: provider.modelId,
      dimensions: provider.dimensions,
      vector: Array.from({ length: provider.dimensions }, (_, i) => Math.sin(i + 1)),
    };
    const subplans = async (vectors: QueryVectorForm) => {
      const req = {
        scope: { excludeStoreIds: [] },
        lexical,
        text,
        lexicalCandidates: 100,
        vectorCandidates: 25,
      };
      const found = (
        await explainPlan(db, oneStatementQuery(req, vectors, postingsFromFloor))
      ).match(/Distributed Subplan/g);
      return found?.length ?? 0;
    };
    expect(await subplans('inline')).toBe((await subplans('shared')) - 1);

    // Read apart, neither the neighbours nor the candidates' rows wait for a coordinator step.
    const req = { scope: { excludeStoreIds: [] }, lexical, lexicalCandidates: 100 };
    const apart = [
      neighboursQuery({ ...req, vectorCandidates: 25 }, 'text', text),
      candidateRowsQuery(
        { ...req, text, vectorCandidates: 25 },
        'inline',
        { given: { storeIds: [stores[0]!.id], productIds: [stores[0]!.productIds[0]!] } },
        lexical.terms,
      ),
    ];
    for (const statement of apart) {
      const plan = await explainPlan(db, statement);
      expect(Number(/Task Count: (\d+)/.exec(plan)?.[1])).toBeGreaterThan(1);
      expect(plan).not.toMatch(/Distributed Subplan/);
    }

    // The rows of results from one store are read from its shard alone.
    const rows = await explainPlan(
      db,
      productRowsQuery([{ storeId: stores[0]!.id, productId: stores[0]!.productIds[0]! }]),
    );
    expect(rows).toMatch(/Task Count: 1\b/);
  });
});
