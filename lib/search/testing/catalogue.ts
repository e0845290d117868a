import type { Db } from '../../db/client';
import { newId } from '../../db/ids';
import { eq } from 'drizzle-orm';
import { ingestPages } from '../../catalog/ingest';
import { products, storeAllowedDevelopers, stores } from '../../db/schema';

export interface FixtureVariant {
  id: number;
  title?: string;
  price: string;
  available?: boolean;
  option1?: string | null;
}

export interface FixtureProduct {
  id: number;
  title: string;
  description?: string;
  productType?: string;
  vendor?: string;
  tags?: string[];
  variants: FixtureVariant[];
}

let sequence = 0;

async function* onePage(records: unknown[]): AsyncGenerator<unknown[]> {
  yield records;
}

/**
 * A small store filled through the catalogue's own ingestion (normalize, upsert, index) from
 * products in Shopify's Admin shape, as a store sync or file import would write them.
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
  const records = items.map((p) => ({
    id: p.id,
    title: p.title,
    handle: p.title.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    body_html: p.description ? `<p>${p.description}</p>` : '',
    vendor: p.vendor ?? '',
    product_type: p.productType ?? '',
    tags: (p.tags ?? []).join(', '),
    options: [{ id: p.id * 10, product_id: p.id, name: 'Size', position: 1, values: ['One'] }],
    images: [
      {
        id: p.id * 100,
        alt: p.title,
        position: 1,
        product_id: p.id,
        created_at: '2026-01-01T00:00:00-05:00',
        updated_at: '2026-01-01T00:00:00-05:00',
        admin_graphql_api_id: `gid://shopify/ProductImage/${p.id * 100}`,
        width: 800,
        height: 600,
        src: `https://cdn.example.com/${p.id}.jpg`,
        variant_ids: [],
      },
    ],
    variants: p.variants.map((v, i) => ({
      id: v.id,
      product_id: p.id,
      title: v.title ?? 'Default Title',
      price: v.price,
      option1: v.option1 ?? 'One',
      option2: null,
      option3: null,
      available: v.available ?? true,
      position: i + 1,
    })),
  }));
  await ingestPages(db, id, onePage(records), { removeVanished: false });
  const rows = await db
    .select({ id: products.id })
    .from(products)
    .where(eq(products.storeId, id))
    .orderBy(products.id);
  return { id, domain, name, productIds: rows.map((r) => r.id) };
}
