import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncProgress } from '../contract/admin-stores';
import { openDatabase, queryRows, type Db } from '../db/client';
import { textArray } from '../sql/arrays';
import { adminProduct } from '../testing/fixtures/admin-product';
import { startTestServer, type TestServer } from '../testing/server';
import { madeUpWord, uniqueDomain } from '../testing/unique';
import { addStore } from '../stores/registry';
import { textEmbedder } from '../embeddings/index';
import { vectorIndexName } from '../embeddings/vector-index';
import { textVectorIndexExists } from '../search/index/indexer';
import { ingestPages } from './ingest';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

/** Products with titles no run has embedded before, so each one goes through the model. */
function page(first: number, count: number): unknown[] {
  return Array.from({ length: count }, (_, i) =>
    adminProduct({
      id: first + i,
      title: `${madeUpWord()} ${madeUpWord()} lamp ${i}`,
      variants: [{ id: (first + i) * 10, price: '19.00' }],
    }),
  );
}

/** Text vectors stored for the store's products with these platform ids. */
async function vectorsFor(
  storeId: string,
  externalIds: number[],
  db: Db = t.database.db,
): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM product_embeddings pe JOIN products p ON p.store_id = pe.store_id AND p.id = pe.product_id
        WHERE pe.kind = 'text' AND p.store_id = ${storeId}
          AND p.external_id = ANY(${textArray(externalIds.map(String))})`,
  );
  return row!.n;
}

describe('ingesting pages', () => {
  it('asks for the next page while the previous one is still embedding, and embeds every page', async () => {
    const db = t.database.db;
    const store = await addStore(db, { domain: uniqueDomain('overlap') });
    let latest: SyncProgress | undefined;
    let embeddedWhenSecondAsked: number | undefined;
    function* pages() {
      yield page(7_100_000, 12);
      embeddedWhenSecondAsked = latest!.embedded;
      yield page(7_200_000, 12);
    }
    const progress = await ingestPages(db, store.id, pages(), {
      removeVanished: false,
      onProgress: (p) => {
        latest = { ...p };
      },
    });
    // The first page was upserted and lexically indexed, but its vectors were not yet in.
    expect(embeddedWhenSecondAsked).toBe(0);
    expect(progress).toMatchObject({ pages: 2, added: 24, embedded: 24 });
    const ids = Array.from({ length: 12 }, (_, i) => [7_100_000 + i, 7_200_000 + i]).flat();
    expect(await vectorsFor(store.id, ids)).toBe(24);
  });

  it('fails with the feed’s error only once the page before it has finished embedding', async () => {
    const db = t.database.db;
    const store = await addStore(db, { domain: uniqueDomain('broken-feed') });
    function* pages() {
      yield page(7_300_000, 12);
      throw new Error('the feed broke');
    }
    await expect(ingestPages(db, store.id, pages(), { removeVanished: false })).rejects.toThrow(
      'the feed broke',
    );
    const ids = Array.from({ length: 12 }, (_, i) => 7_300_000 + i);
    expect(await vectorsFor(store.id, ids)).toBe(12);
  });

  it('builds the text vector index of a first load once its vectors are in, after a failed page too', async () => {
    // A database of its own: the index is dropped, which files sharing a server would see.
    const own = await openDatabase({ url: 'memory://' });
    const db = own.db;
    const index = vectorIndexName('text', textEmbedder().modelId);
    for (const [first, fails] of [
      [7_400_000, false],
      [7_500_000, true],
    ] as const) {
      await db.execute(sql.raw(`DROP INDEX IF EXISTS ${index}`));
      const store = await addStore(db, { domain: uniqueDomain('first-load') });
      let indexedBeforeTheEnd: boolean | undefined;
      async function* pages() {
        yield page(first, 12);
        yield page(first + 100, 12);
        indexedBeforeTheEnd = await textVectorIndexExists(db);
        if (fails) throw new Error('the feed broke');
      }
      const ingest = ingestPages(db, store.id, pages(), { removeVanished: false });
      if (fails) await expect(ingest).rejects.toThrow('the feed broke');
      else await ingest;
      expect(indexedBeforeTheEnd).toBe(false);
      expect(await textVectorIndexExists(db)).toBe(true);
      const ids = Array.from({ length: 12 }, (_, i) => [first + i, first + 100 + i]).flat();
      expect(await vectorsFor(store.id, ids, db)).toBe(24);
    }
    await own.close();
  });
});
