import { and, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import { toCents } from '../../catalog/decimal';
import type { Db } from '../../db/client';
import { products, variants } from '../../db/schema';
import { UcpError } from '../errors';

/**
 * A UCP item id resolved in the store's catalogue. An item id is a variant's external id (what
 * the store sells), or a product's external id when the product has exactly one variant (the
 * suite names products, `bouquet_roses`, in a shop whose products are single items).
 */
export interface CatalogueItem {
  itemId: string;
  variantId: string;
  productId: string;
  title: string;
  variantTitle: string;
  /** In minor units: the catalogue keeps two decimals, the minor unit of the store currencies served. */
  price: number;
  /** The catalogue's decimal price, as the order path records it. */
  priceText: string;
  /** Null when the store does not track the item's stock. */
  stock: number | null;
  available: boolean;
  imageUrl?: string;
}

export async function findItems(
  db: Db,
  storeId: string,
  itemIds: string[],
): Promise<Map<string, CatalogueItem>> {
  const ids = [...new Set(itemIds)];
  const rows = await db
    .select({
      variantId: variants.externalId,
      variantTitle: variants.title,
      price: variants.price,
      available: variants.available,
      stock: variants.inventoryQuantity,
      productId: products.externalId,
      title: products.title,
      images: products.images,
    })
    .from(variants)
    .innerJoin(
      products,
      and(eq(products.storeId, variants.storeId), eq(products.id, variants.productId)),
    )
    .where(
      and(
        eq(variants.storeId, storeId),
        or(inArray(variants.externalId, ids), inArray(products.externalId, ids)),
      ),
    );
  const found = new Map<string, CatalogueItem>();
  for (const id of ids) {
    const byVariant = rows.find((r) => r.variantId === id);
    const ofProduct = rows.filter((r) => r.productId === id);
    if (!byVariant && ofProduct.length > 1) {
      throw new UcpError(
        400,
        'AMBIGUOUS_ITEM',
        `Item ${id} is a product with ${ofProduct.length} variants: name one of its variant ids`,
      );
    }
    const row = byVariant ?? ofProduct[0];
    if (!row) continue;
    const image = (row.images as { src?: string }[] | null)?.[0]?.src;
    found.set(id, {
      itemId: id,
      variantId: row.variantId,
      productId: row.productId,
      title:
        row.variantTitle && row.variantTitle !== 'Default Title'
          ? `${row.title} - ${row.variantTitle}`
          : row.title,
      variantTitle: row.variantTitle,
      price: Number(toCents(row.price)),
      priceText: row.price,
      stock: row.stock,
      available: row.available,
      ...(image ? { imageUrl: image } : {}),
    });
  }
  return found;
}

/** The store's quantity decides; an untracked item must at least be available. */
export function checkStock(item: CatalogueItem, quantity: number): void {
  const enough = item.stock === null ? item.available : item.stock >= quantity;
  if (!enough) {
    throw new UcpError(
      400,
      'OUT_OF_STOCK',
      `Insufficient stock for item ${item.itemId}`,
      'requires_buyer_input',
    );
  }
}

/**
 * Takes an order's quantities off the store's tracked stock, so that the next checkout sees what
 * the store has left (the store decrements its own stock as it takes the order).
 */
export async function takeStock(
  db: Db,
  storeId: string,
  lines: { variantId: string; quantity: number }[],
): Promise<void> {
  for (const line of lines) {
    await db
      .update(variants)
      .set({
        inventoryQuantity: sql`greatest(${variants.inventoryQuantity} - ${line.quantity}, 0)`,
      })
      .where(
        and(
          eq(variants.storeId, storeId),
          eq(variants.externalId, line.variantId),
          isNotNull(variants.inventoryQuantity),
        ),
      );
  }
}
