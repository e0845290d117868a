import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client';
import { createFixtureStore } from '../testing/fixtures/catalogue';
import { isCitus } from '../db/engine';
import { explainPlan, planAvoidingScans } from '../testing/plan';
import { startTestServer, type TestServer } from '../testing/server';
import { ofProducts, type ProductKey } from './product-keys';

let t: TestServer;
const keysOf: ProductKey[][] = [];

beforeAll(async () => {
  t = await startTestServer();
  for (const first of [7101, 7201]) {
    const store = await createFixtureStore(t.database.db, [
      { id: first, title: 'Brass Hinge', variants: [{ id: first * 10, price: '4.00' }] },
      { id: first + 1, title: 'Brass Hook', variants: [{ id: first * 10 + 1, price: '2.00' }] },
    ]);
    keysOf.push(store.productKeys);
  }
});
afterAll(() => t?.close());

describe('ofProducts', () => {
  it('selects exactly the rows of the products named, in one store or several', async () => {
    const db = t.database.db;
    const productsIn = async (keys: ProductKey[]) =>
      (
        await queryRows<{ id: string }>(
          db,
          sql`SELECT DISTINCT product_id::text AS id FROM search_postings
              WHERE ${ofProducts(keys)}`,
        )
      )
        .map((r) => Number(r.id))
        .sort((a, b) => a - b);
    const ids = (keys: ProductKey[]) => keys.map((k) => k.productId).sort((a, b) => a - b);

    expect(await productsIn([keysOf[0]![0]!])).toEqual(ids([keysOf[0]![0]!]));
    const several = [keysOf[0]![1]!, ...keysOf[1]!];
    expect(await productsIn(several)).toEqual(ids(several));
    expect(await productsIn([])).toEqual([]);
  });

  it('reads postings and embeddings by their store-first key, one store on one shard', async () => {
    const db = t.database.db;
    const citus = await isCitus(t.database.db);
    // The term index covers search_postings whole (migration 0026).
    const avoiding = { indexOnlyScans: false };
    for (const table of ['search_postings', 'product_embeddings']) {
      const one = await planAvoidingScans(
        db,
        sql`SELECT * FROM ${sql.raw(table)} WHERE ${ofProducts(keysOf[0]!)}`,
        avoiding,
      );
      // What this replaced read the whole index, its condition on product_id alone.
      expect(one, table).toMatch(/Index Cond: \(+store_id = /);
      if (citus) expect(one, table).toMatch(/Task Count: 1\b/);

      const several = await planAvoidingScans(
        db,
        sql`SELECT * FROM ${sql.raw(table)} WHERE ${ofProducts([...keysOf[0]!, ...keysOf[1]!])}`,
        avoiding,
      );
      expect(several, table).toMatch(/Index Cond: \(+store_id = ANY/);
    }
  });

  it("reads and writes one store's products and variants on one Citus shard", async (ctx) => {
    if (!(await isCitus(t.database.db))) ctx.skip();
    const db = t.database.db;
    const keys = keysOf[0]!;
    const statements = {
      "a sync's read of products to index": sql`SELECT * FROM products
        WHERE ${ofProducts(keys, { idColumn: 'id' })}`,
      "the image queue's marking": sql`UPDATE products SET image_due_at = now()
        WHERE ${ofProducts(keys, { idColumn: 'id' })}`,
      'the removal of variants a store no longer lists': sql`DELETE FROM variants
        WHERE ${ofProducts(keys)} AND external_id <> ALL('{}'::text[])`,
    };
    for (const [name, statement] of Object.entries(statements)) {
      expect(await explainPlan(db, statement), name).toMatch(/Task Count: 1\b/);
    }
  });
});
