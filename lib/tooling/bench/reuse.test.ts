// @no-test-database
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/client';
import { stores } from '../../db/schema';
import { createFixtureStore } from '../../testing/fixtures/catalogue';
import { benchStoresOf, evenRanges } from './ingest';

let database: Database;
const ids: string[] = [];

const item = (id: number, title: string) => ({
  id,
  title,
  tags: [],
  variants: [{ id: id * 10, price: '5.00' }],
});

beforeAll(async () => {
  database = await openDatabase({ url: 'memory://' });
  const catalogues = [[item(1, 'Oak Shelf'), item(2, 'Pine Shelf')], [item(3, 'Birch Shelf')]];
  for (const [n, items] of catalogues.entries()) {
    const store = await createFixtureStore(database.db, items);
    await database.db
      .update(stores)
      .set({ domain: `bench-${n + 1}.example.com` })
      .where(eq(stores.id, store.id));
    ids.push(store.id);
  }
}, 60_000);
afterAll(() => database?.close());

describe('bench --reuse', () => {
  it("finds an earlier run's stores when they hold the whole split catalogue", async () => {
    expect(await benchStoresOf(database.db, 2, 3)).toEqual(ids);
  });

  it('refuses another split or another catalogue', async () => {
    await expect(benchStoresOf(database.db, 1, 2)).rejects.toThrow(/run without --reuse first/);
    await expect(benchStoresOf(database.db, 3, 3)).rejects.toThrow(/found 2 of them/);
    await expect(benchStoresOf(database.db, 2, 4)).rejects.toThrow(/3 of 4 products/);
  });
});

describe('the bench split', () => {
  it('cuts a catalogue into parts that differ by at most one, in order, none empty', () => {
    const items = Array.from({ length: 54_667 }, (_, i) => i);
    const parts = evenRanges(items.length, 1000).map(([start, end]) => items.slice(start, end));
    expect(parts).toHaveLength(1000);
    expect(new Set(parts.map((p) => p.length))).toEqual(new Set([54, 55]));
    expect(parts.flat()).toEqual(items);
    expect(evenRanges(3, 2)).toEqual([
      [0, 1],
      [1, 3],
    ]);
  });
});
