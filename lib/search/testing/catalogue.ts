import type { Db } from '../../db/client';
import { newId } from '../../db/ids';
import { products, stores, variants } from '../../db/schema';
import { indexProducts } from '../indexer';

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

/**
 * A small store written straight into the tables, with a raw product in Shopify's shape, then
 * indexed: lets search tests run without the catalogue import path.
 */
export async function createFixtureStore(
  db: Db,
  items: FixtureProduct[],
  opts: { accessPolicy?: 'open' | 'allow' } = {},
): Promise<{ id: string; domain: string; name: string; productIds: number[] }> {
  sequence++;
  const id = newId('store');
  const domain = `fixture-${id.slice(6, 16).toLowerCase()}-${sequence}.myshopify.com`;
  const name = `Fixture Store ${sequence}`;
  await db
    .insert(stores)
    .values({ id, domain, name, accessPolicy: opts.accessPolicy ?? 'open', verified: true });
  const productIds: number[] = [];
  for (const p of items) {
    const raw = {
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
      variants: p.variants.map((v) => ({
        id: v.id,
        product_id: p.id,
        title: v.title ?? 'Default Title',
        price: v.price,
        option1: v.option1 ?? 'One',
        option2: null,
        option3: null,
        available: v.available ?? true,
      })),
    };
    const prices = p.variants.map((v) => Number(v.price));
    const [row] = await db
      .insert(products)
      .values({
        storeId: id,
        externalId: String(p.id),
        handle: raw.handle,
        title: p.title,
        bodyHtml: raw.body_html,
        description: p.description ?? '',
        vendor: p.vendor ?? '',
        productType: p.productType ?? '',
        tags: p.tags ?? [],
        options: [{ name: 'Size', values: ['One'] }],
        images: [raw.images[0]!.src],
        raw,
        contentHash: `fixture-${p.id}`,
        priceMin: Math.min(...prices).toFixed(2),
        priceMax: Math.max(...prices).toFixed(2),
        available: p.variants.some((v) => v.available ?? true),
      })
      .returning({ id: products.id });
    productIds.push(row!.id);
    await db.insert(variants).values(
      p.variants.map((v, i) => ({
        productId: row!.id,
        storeId: id,
        externalId: String(v.id),
        title: v.title ?? 'Default Title',
        option1: v.option1 ?? 'One',
        price: v.price,
        available: v.available ?? true,
        position: i + 1,
      })),
    );
  }
  await indexProducts(db, productIds);
  return { id, domain, name, productIds };
}
