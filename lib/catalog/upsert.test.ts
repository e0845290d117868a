import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client';
import { adminProduct } from '../testing/fixtures/admin-product';
import { startOwnTestServer } from '../testing/own-database';
import type { TestServer } from '../testing/server';
import { madeUpWord, uniqueDomain } from '../testing/unique';
import { addStore } from '../stores/registry';
import { ingestPages } from './ingest';

let t: TestServer;

// A database of its own: 2,300 products of one shape would move the global statistics (N, the
// average length) that other suites' threshold tests score by.
beforeAll(async () => {
  t = await startOwnTestServer('upsert');
});
afterAll(() => t?.close());

describe('upserting a page', () => {
  it('writes a page of more products than one statement may bind, and replaces their variants', async () => {
    const db = t.database.db;
    const store = await addStore(db, { domain: uniqueDomain('big-page') });
    const word = madeUpWord();
    // 2,300 products: as bound parameters a row each (17), past the 32,767 PGlite's parser reads.
    const bigPage = (variantBase: number) =>
      Array.from({ length: 2300 }, (_, i) =>
        adminProduct({
          id: 7_400_000 + i,
          title: `${word} crate`,
          images: [],
          variants: [{ id: variantBase + i, price: '4.00' }],
        }),
      );
    const counts = async () => {
      const [row] = await queryRows<{ products: number; variants: number; old: number }>(
        db,
        sql`SELECT (SELECT count(*)::int FROM products WHERE store_id = ${store.id}) AS products,
                   (SELECT count(*)::int FROM variants WHERE store_id = ${store.id}) AS variants,
                   (SELECT count(*)::int FROM variants
                    WHERE store_id = ${store.id} AND external_id LIKE '91%') AS old`,
      );
      return row;
    };
    const first = await ingestPages(db, store.id, [bigPage(91_000_000)], { removeVanished: false });
    expect(first).toMatchObject({ added: 2300 });
    expect(await counts()).toEqual({ products: 2300, variants: 2300, old: 2300 });

    // The same products with new variant ids: every old variant goes, every new one is written.
    const second = await ingestPages(db, store.id, [bigPage(92_000_000)], {
      removeVanished: false,
    });
    expect(second).toMatchObject({ changed: 2300 });
    expect(await counts()).toEqual({ products: 2300, variants: 2300, old: 0 });
  }, 180_000);
});
