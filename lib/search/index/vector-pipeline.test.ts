import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { products } from '../../db/schema';
import { textEmbedder } from '../../embeddings/index';
import { cosine } from '../../embeddings/provider';
import { createFixtureStore } from '../../testing/fixtures/catalogue';
import { startTestServer, type TestServer } from '../../testing/server';
import { madeUpWord } from '../../testing/unique';
import { inputHash } from '../query/cached-embeddings';
import { indexLexically } from './indexer';
import type { IndexableProduct } from './lexical-index';
import { bigintArray, textArray } from '../../sql/arrays';
import { computeProductVectors, embeddingInput, storeProductVectors } from './text-embeddings';
import { TextVectorPipeline } from './vector-pipeline';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

let nextExternalId = 9_600_000;

/** Products of a new store, retitled with words no run has embedded, as the indexer reads them. */
async function freshProducts(count: number): Promise<IndexableProduct[]> {
  const db = t.database.db;
  const store = await createFixtureStore(
    db,
    Array.from({ length: count }, () => {
      const id = nextExternalId++;
      return { id, title: 'lamp', variants: [{ id: id * 10, price: '5.00' }] };
    }),
  );
  for (const id of store.productIds) {
    await db
      .update(products)
      .set({ title: `${madeUpWord()} ${madeUpWord()} lamp` })
      .where(eq(products.id, id));
  }
  return indexLexically(db, store.productKeys);
}

const hashesOf = (items: IndexableProduct[]) => items.map((p) => inputHash(embeddingInput(p)));

async function cachedCount(items: IndexableProduct[]): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.database.db,
    sql`SELECT count(*)::int AS n FROM embedding_cache
        WHERE model_id = ${textEmbedder().modelId} AND input_hash = ANY(${textArray(hashesOf(items))})`,
  );
  return row!.n;
}

/** The stored text vector of each product whose stored input is the current one. */
async function storedVectors(items: IndexableProduct[]): Promise<Map<number, number[]>> {
  const rows = await queryRows<{ product_id: string | number; embedding: string }>(
    t.database.db,
    sql`SELECT product_id, embedding::text AS embedding FROM product_embeddings
        WHERE kind = 'text' AND model_id = ${textEmbedder().modelId}
          AND product_id = ANY(${bigintArray(items.map((p) => p.id))})
          AND input_hash = ANY(${textArray(hashesOf(items))})`,
  );
  return new Map(rows.map((r) => [Number(r.product_id), JSON.parse(r.embedding) as number[]]));
}

/** Polls until `ok` holds; false if it still does not after `ms`. */
async function eventually(ok: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await ok()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

describe('TextVectorPipeline', () => {
  it('computes the next batch while the one before is written, and writes batches in order', async () => {
    const [a, b] = [await freshProducts(4), await freshProducts(4)];
    const written: number[][] = [];
    let bComputedDuringA = false;
    const pipeline = new TextVectorPipeline(t.database.db, async ({ items }) => {
      written.push(items.map((p) => p.id));
      // A pipeline that waited for this write before starting b would never get there.
      if (items[0]!.id === a[0]!.id)
        bComputedDuringA = await eventually(async () => (await cachedCount(b)) === 4, 20_000);
    });
    await pipeline.add(a);
    await pipeline.add(b);
    await pipeline.drain();

    expect(bComputedDuringA).toBe(true);
    expect(written).toEqual([a.map((p) => p.id), b.map((p) => p.id)]);
    expect((await storedVectors([...a, ...b])).size).toBe(8);
  });

  it('starts a third batch only once the first is written', async () => {
    const [a, b, c] = [await freshProducts(2), await freshProducts(2), await freshProducts(2)];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const pipeline = new TextVectorPipeline(t.database.db, async ({ items }) => {
      if (items[0]!.id === a[0]!.id) await held;
    });
    await pipeline.add(a);
    await pipeline.add(b);
    const third = pipeline.add(c).then(() => 'started');
    const waited = new Promise((resolve) => setTimeout(() => resolve('waiting'), 300));
    expect(await Promise.race([third, waited])).toBe('waiting');
    release();
    expect(await third).toBe('started');
    await pipeline.drain();
    expect((await storedVectors([...a, ...b, ...c])).size).toBe(6);
  });

  it('keeps a batch’s failure until the batch before it is written, then throws it', async () => {
    const a = await freshProducts(2);
    // An id no database reads as a number: the batch's first statement fails at once.
    const broken: IndexableProduct = { ...a[0]!, id: Number.NaN };
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const pipeline = new TextVectorPipeline(t.database.db, async ({ items }) => {
      if (items[0]!.id === a[0]!.id) await held;
    });
    await pipeline.add(a);
    await pipeline.add([broken]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    await expect(pipeline.drain()).rejects.toThrow();
    expect((await storedVectors(a)).size).toBe(2);
  });

  it('fails with a batch’s error, and writes none of the batches after it', async () => {
    const good = await freshProducts(2);
    // A product id no row has: its vector cannot be stored for it.
    const missing: IndexableProduct = { ...good[0]!, id: -1, title: `${madeUpWord()} lamp` };
    const after = await freshProducts(2);
    const pipeline = new TextVectorPipeline(t.database.db);
    await pipeline.add([missing]);
    await pipeline.add(after);
    await expect(pipeline.drain()).rejects.toThrow();
    await pipeline.settle();
    expect((await storedVectors(after)).size).toBe(0);
  });
});

describe('storeProductVectors', () => {
  it('stores the computed vectors, also when the cache no longer holds them', async () => {
    const db = t.database.db;
    const items = await freshProducts(3);
    const batch = await computeProductVectors(db, textEmbedder(), items);
    expect(batch).toMatchObject({ embedded: 3, reused: 0 });
    await db.execute(
      sql`DELETE FROM embedding_cache WHERE input_hash = ANY(${textArray(hashesOf(items.slice(1)))})`,
    );
    await storeProductVectors(db, batch);

    const stored = await storedVectors(items);
    expect(stored.size).toBe(3);
    batch.stale.forEach(({ id }, i) => {
      expect(cosine(stored.get(id)!, batch.vectors[i]!)).toBeGreaterThan(0.999999);
    });
  });

  it('copies a cached vector from the cache, as it is, without reading it into JavaScript', async () => {
    const db = t.database.db;
    const first = await freshProducts(2);
    await storeProductVectors(db, await computeProductVectors(db, textEmbedder(), first));
    // Other products with the same inputs: every vector is in the cache now.
    const again = await freshProducts(2);
    const same = again.map((p, i) => ({ ...p, title: first[i]!.title }));
    const batch = await computeProductVectors(db, textEmbedder(), same);
    expect(batch).toMatchObject({ embedded: 0, reused: 2, vectors: [null, null] });
    await storeProductVectors(db, batch);
    const rows = await queryRows<{ product_id: string | number; same: boolean }>(
      db,
      sql`SELECT pe.product_id, pe.embedding = c.embedding AS same
          FROM product_embeddings pe
          JOIN embedding_cache c ON c.model_id = pe.model_id AND c.input_hash = pe.input_hash
          WHERE pe.kind = 'text' AND pe.product_id = ANY(${bigintArray(same.map((p) => p.id))})`,
    );
    expect(rows.map((r) => r.same)).toEqual([true, true]);
  });
});
