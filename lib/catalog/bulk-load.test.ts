import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queryRows } from '../db/client';
import { textVectorIndexExists } from '../search/index/indexer';
import { startStoreSim, type StoreSim } from '../store-sim/server';
import { addStore } from '../stores/registry';
import { startTestServer, type TestServer } from '../testing/server';
import { madeUpWord, uniqueDomain } from '../testing/unique';
import { loadInBulk } from './bulk-load';
import { startSync } from './sync';

let t: TestServer;
let sim: StoreSim;
const WORD = madeUpWord();
const DOMAIN = uniqueDomain('bulk-load', 'test');

beforeAll(async () => {
  t = await startTestServer();
  sim = await startStoreSim({
    shops: [
      {
        domain: DOMAIN,
        products: Array.from({ length: 30 }, (_, i) => ({
          id: 9_300_000 + i,
          title: `${WORD} enamel camp mug ${i}`,
          handle: `mug-${i}`,
          tags: [],
          images: [],
          options: [{ name: 'Title', values: ['Default Title'] }],
          variants: [
            { id: 9_400_000 + i, title: 'Default Title', price: '12.00', available: true },
          ],
        })),
      },
    ],
  });
});
afterAll(async () => {
  await sim?.close();
  await t?.close();
});

it('loads with the text vector index dropped, searchable all along, and builds it once at the end', async () => {
  const db = t.database.db;
  const store = await addStore(db, { domain: DOMAIN, baseUrl: sim.shopUrl(DOMAIN) });
  const { key } = await t.newDeveloper();
  const search = () =>
    t.call('POST', '/search/products', {
      key,
      body: { query: { text: `${WORD} mug` }, store_id: store.id, max_result_count: 50 },
    });
  let during: { indexed: boolean; found: number } | undefined;
  const load = await loadInBulk(db, async () => {
    const { done } = await startSync(db, store.id, { inBulkLoad: true });
    const outcome = await done;
    // Vectors compared exactly, without the index.
    during = {
      indexed: await textVectorIndexExists(db),
      found: (await search()).body.results.length,
    };
    return outcome;
  });
  expect(load.result.state).toBe('succeeded');
  expect(during).toEqual({ indexed: false, found: 30 });
  expect(await textVectorIndexExists(db)).toBe(true);
  expect(load.indexBuildSeconds).toBeGreaterThanOrEqual(0);
  expect((await search()).body.results).toHaveLength(30);
  const [vectors] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM product_embeddings WHERE store_id = ${store.id} AND kind = 'text'`,
  );
  expect(vectors!.n).toBe(30);
});

it('builds the index after a load that fails, and reports the load’s error', async () => {
  const db = t.database.db;
  await expect(
    loadInBulk(db, async () => {
      expect(await textVectorIndexExists(db)).toBe(false);
      throw new Error('the feed broke');
    }),
  ).rejects.toThrow('the feed broke');
  expect(await textVectorIndexExists(db)).toBe(true);
});
