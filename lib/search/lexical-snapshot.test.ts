import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '../db/client';
import { products } from '../db/schema';
import { startTestServer, type TestServer } from '../testing/server';
import { indexProducts } from './indexer';
import { rebuildLexicalStats } from './lexical-index';
import {
  documentFrequency,
  lexicalSnapshot,
  scoreLexical,
  type LexicalSnapshot,
} from './lexical-snapshot';
import { createFixtureStore } from './testing/catalogue';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

const titles = [
  'Copper Pipe 3/4 in.',
  'PVC Pipe 1/2 in.',
  'Brass Ball Valve',
  'Garden Hose 50 ft.',
  'Linen Table Lamp',
  'Chrome Floor Lamp',
  'Oak Cutting Board',
  'Steel Claw Hammer',
  'Cordless Drill 18-Volt',
  'Wool Throw Blanket',
];

/** The snapshot must agree with the postings table: every term's document frequency and matches. */
async function expectMatchesDatabase(db: Db, storeId: string, snapshot: LexicalSnapshot) {
  const rows = await queryRows<{ term: string; ids: string[] }>(
    db,
    sql`SELECT term, array_agg(product_id::text ORDER BY product_id) AS ids
        FROM search_postings WHERE store_id = ${storeId} GROUP BY term`,
  );
  for (const { term, ids } of rows) {
    expect(documentFrequency(snapshot, term), term).toBe(ids.length);
    const found = scoreLexical(snapshot, [{ term, weight: 1 }])
      .ranked.map(String)
      .sort();
    expect(found, term).toEqual([...ids].sort());
  }
  const stored = new Set(rows.map((r) => r.term));
  for (const term of snapshot.postings.keys()) {
    if (stored.has(term)) continue;
    expect(documentFrequency(snapshot, term), term).toBe(0);
    expect(scoreLexical(snapshot, [{ term, weight: 1 }]).ranked, term).toEqual([]);
  }
}

describe('lexical snapshot', () => {
  it('reads only the postings written since it was loaded, and reloads after deletions', async () => {
    const db = t.database.db;
    const store = await createFixtureStore(
      db,
      titles.map((title, i) => ({
        id: 5000 + i,
        title,
        variants: [{ id: 50000 + i, price: '1' }],
      })),
    );
    const first = (await lexicalSnapshot(db, store.id))!;
    await expectMatchesDatabase(db, store.id, first);

    const changed = store.productIds.slice(0, 3);
    for (const [i, id] of changed.entries()) {
      await db
        .update(products)
        .set({ title: `Walnut Serving Tray ${i}` })
        .where(eq(products.id, id));
    }
    await indexProducts(db, changed);
    const second = (await lexicalSnapshot(db, store.id))!;
    // Same object, three documents superseded: the refresh read only the new postings.
    expect(second).toBe(first);
    expect(second.deadCount).toBe(3);
    expect(documentFrequency(second, 'copper')).toBe(0);
    expect(documentFrequency(second, 'walnut')).toBe(3);
    await expectMatchesDatabase(db, store.id, second);

    const removed = store.productIds.slice(5, 7);
    await db.delete(products).where(inArray(products.id, removed));
    await rebuildLexicalStats(db, [store.id]);
    const third = (await lexicalSnapshot(db, store.id))!;
    // A deletion starts a new epoch: the postings are read whole again.
    expect(third).not.toBe(second);
    expect(third.deadCount).toBe(0);
    expect(documentFrequency(third, 'lamp')).toBe(1);
    expect(documentFrequency(third, 'oak')).toBe(0);
    await expectMatchesDatabase(db, store.id, third);
  });
});
