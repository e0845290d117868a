import type { Db } from '../../db/client';
import { newId } from '../../db/ids';
import { products, stores, variants } from '../../db/schema';

export interface FixtureVariant {
  id: number;
  title: string;
  price: string;
  available: boolean;
}

export interface FixtureProduct {
  id: number;
  title: string;
  variants: FixtureVariant[];
}

/** The same product in Shopify's storefront shape, for the store simulator's catalogue. */
export function storefrontProduct(p: FixtureProduct) {
  return {
    id: p.id,
    title: p.title,
    handle: p.title.toLowerCase().replace(/\W+/g, '-'),
    tags: [],
    images: [],
    options: [{ name: 'Title', position: 1, values: p.variants.map((v) => v.title) }],
    variants: p.variants,
  };
}

/**
 * A registered store with its catalogue rows, written directly: purchase tests need variants
 * and prices, not the catalogue sync and its embeddings.
 */
export async function insertStore(
  db: Db,
  input: { domain: string; baseUrl: string; products: FixtureProduct[]; policy?: 'open' | 'allow' },
): Promise<string> {
  const id = newId('store');
  await db.insert(stores).values({
    id,
    domain: input.domain,
    name: `Shop ${input.domain}`,
    baseUrl: input.baseUrl,
    accessPolicy: input.policy ?? 'open',
  });
  for (const p of input.products) {
    const [row] = await db
      .insert(products)
      .values({
        storeId: id,
        externalId: String(p.id),
        title: p.title,
        raw: storefrontProduct(p),
        contentHash: `fixture-${p.id}`,
      })
      .returning({ id: products.id });
    await db.insert(variants).values(
      p.variants.map((v, i) => ({
        productId: row!.id,
        storeId: id,
        externalId: String(v.id),
        title: v.title,
        price: v.price,
        available: v.available,
        position: i + 1,
      })),
    );
  }
  return id;
}
