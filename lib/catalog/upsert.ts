import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
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

/**
 * The page's rows as one jsonb parameter, read back by `jsonb_to_recordset`. A statement of bound
 * parameters per row cost the sync more in building them (drizzle's per-value mapping, about a
 * third of the sync's own CPU, docs/bench-log.md#ingest) than the database spent on the rows, and
 * PGlite's protocol parser caps a statement at 32,767 of them; one parameter has neither cost.
 * Prices stay decimal strings, which numeric reads exactly.
 */
function rowsParam(rows: readonly object[]) {
  return sql`${JSON.stringify(rows)}::jsonb`;
}

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
    const conn = tx as unknown as Db;
    const existing = await queryRows<{ external_id: string; content_hash: string }>(
      conn,
      sql`SELECT external_id, content_hash FROM products
          WHERE store_id = ${storeId}
            AND external_id = ANY(${textArray(unique.map((p) => p.externalId))})`,
    );
    const knownHash = new Map(existing.map((r) => [r.external_id, r.content_hash]));
    const toWrite = unique.filter((p) => knownHash.get(p.externalId) !== p.contentHash);
    const added = toWrite.filter((p) => !knownHash.has(p.externalId)).length;
    const result = {
      added,
      changed: toWrite.length - added,
      unchanged: unique.length - toWrite.length,
      writtenIds: [] as number[],
    };
    if (toWrite.length === 0) return result;

    const written = await queryRows<{ id: number | string; external_id: string }>(
      conn,
      sql`INSERT INTO products (store_id, external_id, handle, title, body_html, description, vendor,
                                product_type, tags, options, images, raw, content_hash, price_min,
                                price_max, available, updated_at)
          SELECT ${storeId}, r.external_id, r.handle, r.title, r.body_html, r.description, r.vendor,
                 r.product_type, r.tags, r.options, r.images, r.raw, r.content_hash, r.price_min,
                 r.price_max, r.available, now()
          FROM jsonb_to_recordset(${rowsParam(
            toWrite.map((p) => ({
              external_id: p.externalId,
              handle: p.handle,
              title: p.title,
              body_html: p.bodyHtml,
              description: p.description,
              vendor: p.vendor,
              product_type: p.productType,
              tags: p.tags,
              options: p.options,
              images: p.images,
              raw: p.raw,
              content_hash: p.contentHash,
              price_min: p.priceMin,
              price_max: p.priceMax,
              available: p.available,
            })),
          )}) AS r(external_id text, handle text, title text, body_html text, description text,
                   vendor text, product_type text, tags text[], options jsonb, images jsonb,
                   raw jsonb, content_hash text, price_min numeric, price_max numeric,
                   available boolean)
          ON CONFLICT (store_id, external_id) DO UPDATE SET
            handle = excluded.handle, title = excluded.title, body_html = excluded.body_html,
            description = excluded.description, vendor = excluded.vendor,
            product_type = excluded.product_type, tags = excluded.tags, options = excluded.options,
            images = excluded.images, raw = excluded.raw, content_hash = excluded.content_hash,
            price_min = excluded.price_min, price_max = excluded.price_max,
            available = excluded.available, updated_at = excluded.updated_at
          RETURNING id, external_id`,
    );
    const idOf = new Map(written.map((r) => [r.external_id, Number(r.id)]));
    result.writtenIds = [...idOf.values()];

    const variantRows = [
      ...new Map(
        toWrite.flatMap((p) =>
          p.variants.map((v) => [
            v.externalId,
            {
              external_id: v.externalId,
              product_id: idOf.get(p.externalId)!,
              title: v.title,
              option1: v.option1,
              option2: v.option2,
              option3: v.option3,
              sku: v.sku,
              price: v.price,
              available: v.available,
              position: v.position,
            },
          ]),
        ),
      ).values(),
    ];
    if (variantRows.length > 0) {
      await conn.execute(sql`
        INSERT INTO variants (store_id, external_id, product_id, title, option1, option2, option3,
                              sku, price, available, position)
        SELECT ${storeId}, r.external_id, r.product_id, r.title, r.option1, r.option2, r.option3,
               r.sku, r.price, r.available, r.position
        FROM jsonb_to_recordset(${rowsParam(variantRows)})
          AS r(external_id text, product_id bigint, title text, option1 text, option2 text,
               option3 text, sku text, price numeric, available boolean, position integer)
        ON CONFLICT (store_id, external_id) DO UPDATE SET
          product_id = excluded.product_id, title = excluded.title, option1 = excluded.option1,
          option2 = excluded.option2, option3 = excluded.option3, sku = excluded.sku,
          price = excluded.price, available = excluded.available, position = excluded.position`);
    }
    // Variants the store no longer lists for these products (array parameters, however many).
    await conn.execute(
      sql`DELETE FROM variants
          WHERE ${ofProducts(result.writtenIds.map((productId) => ({ storeId, productId })))}
            AND external_id <> ALL(${textArray(variantRows.map((v) => v.external_id))})`,
    );
    return result;
  });
}
