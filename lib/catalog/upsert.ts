import { and, eq, getTableColumns, inArray, sql, type SQL, type Table } from 'drizzle-orm';
import type { Db } from '../db/client';
import { products, variants } from '../db/schema';
import { ofProducts } from '../sql/product-keys';
import { textArray } from '../sql/arrays';
import type { NormalizedProduct } from './normalize';

export interface UpsertResult {
  added: number;
  changed: number;
  unchanged: number;
  /** Rows written (added or changed): what needs indexing. */
  writtenIds: number[];
}

/** ON CONFLICT DO UPDATE: the listed columns take the values of the row that was refused. */
function takeNewValues<T extends Table>(
  table: T,
  keys: Array<keyof T['_']['columns'] & string>,
): Record<string, SQL> {
  const columns = getTableColumns(table);
  return Object.fromEntries(keys.map((key) => [key, sql.raw(`excluded."${columns[key]!.name}"`)]));
}

/**
 * Rows per INSERT. PostgreSQL takes 65,535 bound parameters per statement, but PGlite's protocol
 * parser reads the count as a signed 16-bit number and fails past 32,767 (an ingest page of 2,300
 * products did). Product rows have 17 parameters, variant rows 10.
 */
const PRODUCT_ROWS_PER_STATEMENT = 1000;
const VARIANT_ROWS_PER_STATEMENT = 1000;

/**
 * Writes one batch of a store's products in a transaction: new ones inserted, those whose
 * content hash differs rewritten with their variants, unchanged ones left alone (so they are
 * neither rewritten nor re-indexed).
 */
export async function upsertProducts(
  db: Db,
  storeId: string,
  batch: NormalizedProduct[],
): Promise<UpsertResult> {
  // The same product twice in one batch would make ON CONFLICT touch a row twice: last wins.
  const unique = [...new Map(batch.map((p) => [p.externalId, p])).values()];
  if (unique.length === 0) return { added: 0, changed: 0, unchanged: 0, writtenIds: [] };
  return db.transaction(async (tx) => {
    const existing = await tx
      .select({ externalId: products.externalId, contentHash: products.contentHash })
      .from(products)
      .where(
        and(
          eq(products.storeId, storeId),
          inArray(
            products.externalId,
            unique.map((p) => p.externalId),
          ),
        ),
      );
    const knownHash = new Map(existing.map((r) => [r.externalId, r.contentHash]));
    const toWrite = unique.filter((p) => knownHash.get(p.externalId) !== p.contentHash);
    const added = toWrite.filter((p) => !knownHash.has(p.externalId)).length;
    const result = {
      added,
      changed: toWrite.length - added,
      unchanged: unique.length - toWrite.length,
      writtenIds: [] as number[],
    };
    if (toWrite.length === 0) return result;

    const now = new Date();
    const written: Array<{ id: number; externalId: string }> = [];
    for (let i = 0; i < toWrite.length; i += PRODUCT_ROWS_PER_STATEMENT) {
      const rows = await tx
        .insert(products)
        .values(
          toWrite.slice(i, i + PRODUCT_ROWS_PER_STATEMENT).map((p) => ({
            storeId,
            externalId: p.externalId,
            handle: p.handle,
            title: p.title,
            bodyHtml: p.bodyHtml,
            description: p.description,
            vendor: p.vendor,
            productType: p.productType,
            tags: p.tags,
            options: p.options,
            images: p.images,
            raw: p.raw,
            contentHash: p.contentHash,
            priceMin: p.priceMin,
            priceMax: p.priceMax,
            available: p.available,
            updatedAt: now,
          })),
        )
        .onConflictDoUpdate({
          target: [products.storeId, products.externalId],
          set: takeNewValues(products, [
            'handle',
            'title',
            'bodyHtml',
            'description',
            'vendor',
            'productType',
            'tags',
            'options',
            'images',
            'raw',
            'contentHash',
            'priceMin',
            'priceMax',
            'available',
            'updatedAt',
          ]),
        })
        .returning({ id: products.id, externalId: products.externalId });
      written.push(...rows);
    }
    const idOf = new Map(written.map((r) => [r.externalId, r.id]));
    result.writtenIds = written.map((r) => r.id);

    const variantRows = [
      ...new Map(
        toWrite.flatMap((p) =>
          p.variants.map((v) => [
            v.externalId,
            { ...v, storeId, productId: idOf.get(p.externalId)! },
          ]),
        ),
      ).values(),
    ];
    for (let i = 0; i < variantRows.length; i += VARIANT_ROWS_PER_STATEMENT) {
      await tx
        .insert(variants)
        .values(variantRows.slice(i, i + VARIANT_ROWS_PER_STATEMENT))
        .onConflictDoUpdate({
          target: [variants.storeId, variants.externalId],
          set: takeNewValues(variants, [
            'productId',
            'title',
            'option1',
            'option2',
            'option3',
            'sku',
            'price',
            'available',
            'position',
          ]),
        });
    }
    // Variants the store no longer lists for these products (array parameters, however many).
    await tx.delete(variants).where(
      sql`${ofProducts(result.writtenIds.map((productId) => ({ storeId, productId })))}
          AND ${variants.externalId} <> ALL(${textArray(variantRows.map((v) => v.externalId))})`,
    );
    return result;
  });
}
