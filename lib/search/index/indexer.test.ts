import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '../../db/client';
import { products, searchPostings } from '../../db/schema';
import { startTestServer, type TestServer } from '../../testing/server';
import { madeUpWord } from '../../testing/unique';
import { analyze } from '../query/analyzer';
import { indexProducts } from './indexer';
import { createFixtureStore } from '../../testing/fixtures/catalogue';
import { bigintArray, textArray } from '../../sql/arrays';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

describe('analyzer', () => {
  it('brings units, fractions and dimensions written differently to the same terms', () => {
    expect(analyze('3/4 in. Copper Pipe')).toEqual(expect.arrayContaining(['0.75in', 'pipe']));
    expect(analyze('3/4-inch copper pipes')).toEqual(expect.arrayContaining(['0.75in', 'pipe']));
    expect(analyze('2 in. x 4 in. x 8 ft. Stud')).toEqual(
      expect.arrayContaining(['2x4', '8ft', 'stud']),
    );
    expect(analyze('2x4 studs')).toEqual(expect.arrayContaining(['2x4', 'stud']));
    expect(analyze('1-1/2 in. PVC')).toContain('1.5in');
    expect(analyze('DEWALT 18-Volt Drill DW089K')).toEqual(
      expect.arrayContaining(['dewalt', '18v', 'dw089k']),
    );
  });
});

/** The global document frequency of each term (search_terms), 0 for a term no store holds. */
async function documentFrequencies(db: TestServer['database']['db'], terms: string[]) {
  const rows = await queryRows<{ term: string; df: number }>(
    db,
    sql`SELECT term, df FROM search_terms WHERE term = ANY(${textArray(terms)})`,
  );
  return Object.fromEntries(
    terms.map((term) => [term, rows.find((r) => r.term === term)?.df ?? 0]),
  );
}

describe('indexProducts', () => {
  it('writes search text, postings, statistics and one embedding per product, and reuses them', async () => {
    const db = t.database.db;
    // Made-up words, new every run: statistics are global, the database may be shared with
    // other suites and kept between runs, and a renamed title must be new to the embedding cache.
    const [common, dropped, added] = [madeUpWord(), madeUpWord(), madeUpWord()];
    const store = await createFixtureStore(db, [
      { id: 9001, title: `${common} Pipe 3/4 in.`, variants: [{ id: 90011, price: '12.50' }] },
      { id: 9002, title: `${dropped} ${common} 1/2 in.`, variants: [{ id: 90021, price: '3.10' }] },
      { id: 9003, title: `${common} Pipe 3/4 in.`, variants: [{ id: 90031, price: '12.00' }] },
    ]);
    const postings = await db
      .select({ term: searchPostings.term })
      .from(searchPostings)
      .where(eq(searchPostings.productId, store.productIds[0]!));
    expect(postings.map((p) => p.term)).toContain('0.75in');

    expect(await documentFrequencies(db, [common, dropped, added])).toEqual({
      [common]: 3,
      [dropped]: 1,
      [added]: 0,
    });
    const [stats] = await queryRows<{ doc_count: number; total_len: number }>(
      db,
      sql`SELECT doc_count, total_len FROM search_store_stats WHERE store_id = ${store.id}`,
    );
    expect(stats!.doc_count).toBe(3);
    const [posted] = await queryRows<{ len: number }>(
      db,
      sql`SELECT sum(doc_len)::float8 AS len FROM (SELECT DISTINCT product_id, doc_len
          FROM search_postings WHERE store_id = ${store.id}) d`,
    );
    expect(stats!.total_len).toBeCloseTo(posted!.len, 6);
    await expectCorpusIsSumOfStores(db);

    const vectors = await queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM product_embeddings
          WHERE kind = 'text' AND product_id = ANY(${bigintArray(store.productIds)})`,
    );
    expect(vectors[0]!.n).toBe(3);

    const again = await indexProducts(db, store.productKeys);
    expect(again).toMatchObject({ embedded: 0, reused: 3 });
    expect(await documentFrequencies(db, [common, dropped])).toEqual({ [common]: 3, [dropped]: 1 });

    await db
      .update(products)
      .set({ title: `${added} ${common} 3/4 in.` })
      .where(eq(products.id, store.productIds[1]!));
    const changed = await indexProducts(db, store.productKeys);
    expect(changed).toMatchObject({ embedded: 1, reused: 2 });
    // The re-indexed product left its old terms: no store holds the second word any more.
    expect(await documentFrequencies(db, [common, dropped, added])).toEqual({
      [common]: 3,
      [dropped]: 0,
      [added]: 1,
    });
    await expectCorpusIsSumOfStores(db);
  });

  it('keeps the corpus totals right when stores are indexed at once', async () => {
    const db = t.database.db;
    const word = madeUpWord();
    const store = (n: number) =>
      createFixtureStore(db, [
        {
          id: 9101 + n,
          title: `${word} Lamp ${n}`,
          variants: [{ id: 91010 + n, price: '4.00' }],
        },
        { id: 9201 + n, title: `${word} Shade`, variants: [{ id: 92010 + n, price: '2.00' }] },
      ]);
    // PGlite, in process or behind its socket, has one session: its indexers never overlap, and
    // transactions sent at once over its socket would interleave inside that one session.
    const [engine] = await queryRows<{ version: string }>(db, sql`SELECT version()`);
    if (engine!.version.includes('wasm32')) {
      for (const n of [0, 1, 2, 3]) await store(n);
    } else {
      await Promise.all([0, 1, 2, 3].map(store));
    }
    await expectCorpusIsSumOfStores(db);
  });
});

/** search_corpus_stats, which searches read, holds every store's row summed. */
async function expectCorpusIsSumOfStores(db: Db) {
  const [row] = await queryRows<{ n: number; len: number; sum_n: number; sum_len: number }>(
    db,
    sql`SELECT c.doc_count AS n, c.total_len AS len, s.n AS sum_n, s.len AS sum_len
        FROM search_corpus_stats c,
             (SELECT sum(doc_count)::float8 AS n, sum(total_len)::float8 AS len
              FROM search_store_stats) s`,
  );
  expect(row!.n).toBe(row!.sum_n);
  expect(row!.len).toBeCloseTo(row!.sum_len, 6);
}
