import type { Db } from '../../db/client';
import { newId } from '../../db/ids';
import { products, stores } from '../../db/schema';

/**
 * A store with products that have only what image indexing reads (a title and image URLs),
 * written straight into the tables: image tests need no catalogue import and no text index.
 */
export async function insertImageProducts(
  db: Db,
  items: { title: string; images: string[] }[],
): Promise<number[]> {
  const storeId = newId('store');
  await db.insert(stores).values({
    id: storeId,
    domain: `images-${storeId.slice(-12).toLowerCase()}.myshopify.com`,
    name: 'Image fixture store',
    verified: true,
  });
  const rows = await db
    .insert(products)
    .values(
      items.map((item, i) => ({
        storeId,
        externalId: String(i + 1),
        title: item.title,
        images: item.images,
        raw: { id: i + 1, title: item.title, images: item.images.map((src) => ({ src })) },
        contentHash: `image-fixture-${i + 1}`,
      })),
    )
    .returning({ id: products.id });
  return rows.map((r) => r.id);
}
