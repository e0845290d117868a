import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stores } from '../../db/schema';
import { createFixtureStore } from '../../testing/fixtures/catalogue';
import { startTestServer, type TestServer } from '../../testing/server';
import { madeUpWord } from '../../testing/unique';
import type { FixtureProduct } from '../../testing/fixtures/admin-product';

let t: TestServer;
let dev: { id: string; key: string };
let outsider: { id: string; key: string };
let big: { id: string; domain: string; name: string };
let small: { id: string; domain: string; name: string };
let closed: { id: string; domain: string; name: string };

const product = (id: number): FixtureProduct => ({
  id,
  title: `Product ${id}`,
  variants: [{ id: id * 10, price: '1.00' }],
});

interface Listed {
  id: string;
  name: string;
  domain: string;
  product_count: number;
  verified: boolean;
}

async function list(key: string | null): Promise<{ status: number; body: any }> {
  return t.call('GET', '/stores', { key });
}

beforeAll(async () => {
  t = await startTestServer();
  dev = await t.newDeveloper('free');
  outsider = await t.newDeveloper('free');
  big = await createFixtureStore(t.database.db, [product(101), product(102), product(103)]);
  small = await createFixtureStore(t.database.db, [product(201)]);
  closed = await createFixtureStore(t.database.db, [product(301)], {
    accessPolicy: 'allow',
    allowedDevelopers: [dev.id],
  });
  // Names that sort small before big, whatever the fixtures are called.
  const word = madeUpWord();
  await t.database.db
    .update(stores)
    .set({ name: `${word} A`, verified: false })
    .where(eq(stores.id, small.id));
  await t.database.db
    .update(stores)
    .set({ name: `${word} B` })
    .where(eq(stores.id, big.id));
});
afterAll(() => t?.close());

describe('GET /stores', () => {
  it('lists the stores open to the key, by name, with product counts and verification', async () => {
    const res = await list(dev.key);
    expect(res.status).toBe(200);
    expect(res.body.code).toBe('STORES_LISTED');
    const mine = (res.body.stores as Listed[]).filter((s) =>
      [big.id, small.id, closed.id].includes(s.id),
    );
    expect(mine.map((s) => s.id).filter((id) => id !== closed.id)).toEqual([small.id, big.id]);
    expect(mine.find((s) => s.id === big.id)).toEqual({
      id: big.id,
      name: expect.stringMatching(/ B$/),
      domain: big.domain,
      product_count: 3,
      verified: true,
      currency: null,
    });
    expect(mine.find((s) => s.id === small.id)).toMatchObject({
      product_count: 1,
      verified: false,
    });
    expect(mine.find((s) => s.id === closed.id)).toMatchObject({ product_count: 1 });
  });

  it('leaves out a closed store for a developer it does not list', async () => {
    const res = await list(outsider.key);
    expect(res.status).toBe(200);
    const ids = (res.body.stores as Listed[]).map((s) => s.id);
    expect(ids).toEqual(expect.arrayContaining([big.id, small.id]));
    expect(ids).not.toContain(closed.id);
    expect(Object.keys(res.body.stores[0]).sort()).toEqual([
      'currency',
      'domain',
      'id',
      'name',
      'product_count',
      'verified',
    ]);
  });

  it('needs a key', async () => {
    const res = await list(null);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('AUTH_MISSING');
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await t.call('GET', '/openapi.json')).body;
    expect(doc.paths['/stores'].get.operationId).toBe('listStores');
    expect(doc.components.schemas.Store.required).toEqual(
      expect.arrayContaining(['id', 'name', 'domain', 'product_count', 'verified']),
    );
  });
});
