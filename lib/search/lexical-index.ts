import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { queryRows } from '../db/client';
import { analyze } from './analyzer';
import { bigintArray, textArray, floatArray } from './sql-arrays';

/**
 * Field weights of BM25F: a title term counts 1, a type/tag/vendor term 0.5, a description
 * term 0.2. The same weights scale document length, so a long description does not bury a
 * title match. They are stored as tsvector weights A, B, C in products.search_text.
 */
export const FIELD_WEIGHTS = { A: 1, B: 0.5, C: 0.2 } as const;

/** tsvector positions stop at 16383; descriptions beyond this many terms add nothing useful. */
const MAX_DESCRIPTION_TERMS = 400;

export interface IndexableProduct {
  id: number;
  storeId: string;
  title: string;
  productType: string;
  vendor: string;
  tags: string[];
  description: string;
}

function quoteLexeme(term: string): string {
  return `'${term.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/**
 * The product's terms as a tsvector literal, built here rather than with to_tsvector so that the
 * stored lexemes are exactly the analyzer's terms (units, fractions, model numbers intact).
 */
export function searchTextLiteral(p: IndexableProduct): string {
  const fields: Array<[keyof typeof FIELD_WEIGHTS, string[]]> = [
    ['A', analyze(p.title)],
    ['B', analyze([p.productType, p.vendor, ...p.tags].join(' . '))],
    ['C', analyze(p.description).slice(0, MAX_DESCRIPTION_TERMS)],
  ];
  const positions = new Map<string, string[]>();
  let position = 0;
  for (const [weight, terms] of fields) {
    for (const term of terms) {
      position = Math.min(position + 1, 16383);
      const list = positions.get(term) ?? [];
      // A tsvector keeps at most 256 positions per lexeme.
      if (list.length < 256) list.push(`${position}${weight}`);
      positions.set(term, list);
    }
  }
  return [...positions].map(([term, list]) => `${quoteLexeme(term)}:${list.join(',')}`).join(' ');
}

const WEIGHT_CASE = sql.raw(
  `CASE w WHEN 'A' THEN ${FIELD_WEIGHTS.A} WHEN 'B' THEN ${FIELD_WEIGHTS.B} ELSE ${FIELD_WEIGHTS.C} END`,
);

/**
 * Writes search_text for the products, rebuilds their postings from it, and brings the store's
 * statistics up to date. The store's version is bumped first and stamped on the new postings, so
 * every process's in-memory snapshot (lib/search/lexical-snapshot.ts) reads just these postings
 * before its next search.
 */
export async function indexLexical(db: Db, items: IndexableProduct[]): Promise<void> {
  if (items.length === 0) return;
  const ids = items.map((p) => p.id);
  const literals = items.map(searchTextLiteral);
  const stores = [...new Set(items.map((p) => p.storeId))];
  await db.transaction(async (tx) => {
    const conn = tx as unknown as Db;
    const lenBefore = await postedLengths(conn, ids);
    await tx.execute(sql`
      UPDATE products p SET search_text = u.tsv::tsvector
      FROM unnest(${bigintArray(ids)}, ${textArray(literals)}) AS u(id, tsv)
      WHERE p.id = u.id`);
    await tx.execute(sql`DELETE FROM search_postings WHERE product_id = ANY(${bigintArray(ids)})`);
    // The row lock taken here also orders concurrent writers of one store's postings.
    await tx.execute(sql`
      INSERT INTO search_store_stats (store_id, doc_count, total_len, version)
      SELECT id, 0, 0, 1 FROM unnest(${textArray(stores)}) AS u(id)
      ON CONFLICT (store_id) DO UPDATE SET version = search_store_stats.version + 1`);
    await tx.execute(sql`
      INSERT INTO search_postings (store_id, term, product_id, tf, doc_len, version)
      SELECT p.store_id, t.lexeme, p.id,
             (SELECT sum(${WEIGHT_CASE}) FROM unnest(t.weights) AS w),
             d.len, st.version
      FROM products p
      JOIN search_store_stats st ON st.store_id = p.store_id
      CROSS JOIN LATERAL (
        SELECT coalesce(sum(${WEIGHT_CASE}), 0) AS len
        FROM unnest(p.search_text) AS x, unnest(x.weights) AS w
      ) d
      CROSS JOIN LATERAL unnest(p.search_text) AS t
      WHERE p.id = ANY(${bigintArray(ids)})`);
    const lenAfter = await postedLengths(conn, ids);
    const delta = stores.map((s) => (lenAfter.get(s) ?? 0) - (lenBefore.get(s) ?? 0));
    await conn.execute(sql`
      UPDATE search_store_stats st
      SET doc_count = (SELECT count(*) FROM products p WHERE p.store_id = st.store_id)::int,
          total_len = st.total_len + u.delta
      FROM unnest(${textArray(stores)}, ${floatArray(delta)}) AS u(id, delta)
      WHERE st.store_id = u.id`);
  });
}

/** Sum of document lengths per store over these products' current postings. */
async function postedLengths(db: Db, ids: number[]): Promise<Map<string, number>> {
  const rows = await queryRows<{ store_id: string; len: number }>(
    db,
    sql`SELECT store_id, sum(doc_len)::float8 AS len FROM (
          SELECT DISTINCT ON (product_id) store_id, doc_len FROM search_postings
          WHERE product_id = ANY(${bigintArray(ids)}) ORDER BY product_id) d
        GROUP BY store_id`,
  );
  return new Map(rows.map((r) => [r.store_id, Number(r.len)]));
}

/**
 * Recomputes N and the total length of the stores from their postings, and starts a new epoch:
 * for use after products were deleted (their postings go with them by cascade), which snapshots
 * can only learn by reading the store's postings whole.
 */
export async function rebuildLexicalStats(db: Db, storeIds: string[]): Promise<void> {
  if (storeIds.length === 0) return;
  await db.execute(sql`
    INSERT INTO search_store_stats (store_id, doc_count, total_len, version, epoch)
    SELECT s.id,
           (SELECT count(*) FROM products p WHERE p.store_id = s.id)::int,
           coalesce((SELECT sum(d.doc_len) FROM (
              SELECT DISTINCT ON (product_id) doc_len FROM search_postings sp
              WHERE sp.store_id = s.id ORDER BY product_id) d), 0),
           1, 1
    FROM unnest(${textArray(storeIds)}) AS s(id)
    ON CONFLICT (store_id) DO UPDATE
      SET doc_count = excluded.doc_count, total_len = excluded.total_len,
          version = search_store_stats.version + 1, epoch = search_store_stats.epoch + 1`);
}
