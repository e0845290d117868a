import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client';
import { products } from '../db/schema';
import { startTestServer, type TestServer } from '../testing/server';
import { madeUpWord } from '../testing/unique';
import { analyze } from './analyzer';
import { indexProducts } from './indexer';
import { documentFrequency, lexicalSnapshot } from './lexical-snapshot';
import { createFixtureStore } from './testing/catalogue';
import { bigintArray } from './sql-arrays';

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

describe('indexProducts', () => {
  it('writes search text, postings, statistics and one embedding per product, and reuses them', async () => {
    const db = t.database.db;
    // Made-up words: their document frequencies count only these products whatever else the
    // database holds, and the renamed title is new to the embedding cache, which outlives runs.
    const [pipe, pvc, brass] = [madeUpWord(), madeUpWord(), madeUpWord()];
    const store = await createFixtureStore(db, [
      { id: 9001, title: `Copper ${pipe} 3/4 in.`, variants: [{ id: 90011, price: '12.50' }] },
      { id: 9002, title: `${pvc} ${pipe} 1/2 in.`, variants: [{ id: 90021, price: '3.10' }] },
      { id: 9003, title: `Copper ${pipe} 3/4 in.`, variants: [{ id: 90031, price: '12.00' }] },
    ]);
    const [row] = await db
      .select({ searchText: products.searchText })
      .from(products)
      .where(eq(products.id, store.productIds[0]!));
    expect(row!.searchText).toContain("'0.75in'");

    const before = (await lexicalSnapshot(db, store.id))!;
    const versionBefore = before.version;
    expect(documentFrequency(before, pipe)).toBe(3);
    const [stats] = await queryRows<{ doc_count: number }>(
      db,
      sql`SELECT doc_count FROM search_store_stats WHERE store_id = ${store.id}`,
    );
    expect(stats!.doc_count).toBe(3);

    const vectors = await queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM product_embeddings
          WHERE kind = 'text' AND product_id = ANY(${bigintArray(store.productIds)})`,
    );
    expect(vectors[0]!.n).toBe(3);

    const again = await indexProducts(db, store.productIds);
    expect(again).toMatchObject({ embedded: 0, reused: 3 });

    await db
      .update(products)
      .set({ title: `${brass} ${pipe} 3/4 in.` })
      .where(eq(products.id, store.productIds[1]!));
    const changed = await indexProducts(db, store.productIds);
    expect(changed).toMatchObject({ embedded: 1, reused: 2 });
    // Another write bumped the store's version: the next search reads the new postings.
    const after = (await lexicalSnapshot(db, store.id))!;
    expect(after.version).toBeGreaterThan(versionBefore);
    expect(documentFrequency(after, pvc)).toBe(0);
    expect(documentFrequency(after, brass)).toBe(1);
    expect(documentFrequency(after, pipe)).toBe(3);
  });
});
