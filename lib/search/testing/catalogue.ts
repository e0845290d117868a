import type { Db } from '../../db/client';
import { newId } from '../../db/ids';
import { eq } from 'drizzle-orm';
import { ingestPages } from '../../catalog/ingest';
import { products, storeAllowedDevelopers, stores } from '../../db/schema';
import { adminProduct, type FixtureProduct } from '../../testing/fixtures/admin-product';

export type { FixtureProduct };

let sequence = 0;

function* onePage(records: unknown[]): Generator<unknown[]> {
  yield records;
}

/**
 * A small store filled through the catalogue's own ingestion (normalize, upsert, index) from
 * products in Shopify's Admin shape, as a store sync or file import would write them. Its
 * product ids come in the order of `items`.
 */
export async function createFixtureStore(
  db: Db,
  items: FixtureProduct[],
  opts: { accessPolicy?: 'open' | 'allow'; allowedDevelopers?: string[] } = {},
): Promise<{ id: string; domain: string; name: string; productIds: number[] }> {
  sequence++;
  const id = newId('store');
  const domain = `fixture-${id.slice(6, 16).toLowerCase()}-${sequence}.myshopify.com`;
  const name = `Fixture Store ${sequence}`;
  await db
    .insert(stores)
    .values({ id, domain, name, accessPolicy: opts.accessPolicy ?? 'open', verified: true });
  if (opts.allowedDevelopers?.length) {
    await db
      .insert(storeAllowedDevelopers)
      .values(opts.allowedDevelopers.map((developerId) => ({ storeId: id, developerId })));
  }
  const records = items.map(adminProduct);
  await ingestPages(db, id, onePage(records), { removeVanished: false });
  const rows = await db
    .select({ id: products.id, externalId: products.externalId })
    .from(products)
    .where(eq(products.storeId, id));
  // Matched by platform id, not sorted by row id: no database promises to number rows in
  // insertion order.
  const idOf = new Map(rows.map((r) => [r.externalId, r.id]));
  return { id, domain, name, productIds: items.map((p) => idOf.get(String(p.id))!) };
}
