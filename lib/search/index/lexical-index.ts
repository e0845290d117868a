import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/client';
import { analyze } from '../query/analyzer';
import { newCacheVersion } from '../retrieve/cache-version';
import { impact } from '../rank/bm25';
import { ofProducts, type ProductKey } from '../../sql/product-keys';
import { bigintArray, floatArray, textArray } from '../../sql/arrays';
import { reachesFloor, reachesFloorSql, readFloors, refreshFloors } from './term-floors';

/**
 * Field weights of BM25F: a title term counts 1, a type/tag/vendor term 0.5, a description
 * term 0.2. The same weights scale document length, so a long description does not bury a
 * title match.
 */
export const FIELD_WEIGHTS = { A: 1, B: 0.5, C: 0.2 } as const;

/** Descriptions beyond this many terms add nothing useful. */
const MAX_DESCRIPTION_TERMS = 400;
/** Occurrences of one term past this many add nothing (the cap the tsvector index once had). */
const MAX_OCCURRENCES = 256;

export interface IndexableProduct {
  id: number;
  storeId: string;
  title: string;
  productType: string;
  vendor: string;
  tags: string[];
  description: string;
}

interface ProductTerms {
  /** Field-weighted term frequency per term. */
  tf: Map<string, number>;
  /** Field-weighted document length: the sum of the frequencies. */
  length: number;
}

/** The product's terms with their BM25F frequencies, exactly the analyzer's terms (units, fractions, model numbers intact). */
function productTerms(p: IndexableProduct): ProductTerms {
  const fields: Array<[keyof typeof FIELD_WEIGHTS, string[]]> = [
    ['A', analyze(p.title)],
    ['B', analyze([p.productType, p.vendor, ...p.tags].join(' . '))],
    ['C', analyze(p.description).slice(0, MAX_DESCRIPTION_TERMS)],
  ];
  const occurrences = new Map<string, number>();
  const tf = new Map<string, number>();
  let length = 0;
  for (const [weight, terms] of fields) {
    for (const term of terms) {
      const seen = occurrences.get(term) ?? 0;
      if (seen >= MAX_OCCURRENCES) continue;
      occurrences.set(term, seen + 1);
      tf.set(term, (tf.get(term) ?? 0) + FIELD_WEIGHTS[weight]);
      length += FIELD_WEIGHTS[weight];
    }
  }
  return { tf, length };
}

/** Document count and length over every store: BM25's N and average length. */
async function corpusTotals(db: Db): Promise<{ docCount: number; totalLen: number }> {
  const [row] = await queryRows<{ doc_count: number | string; total_len: number | string }>(
    db,
    sql`SELECT doc_count, total_len FROM search_corpus_stats`,
  );
  return { docCount: Number(row?.doc_count ?? 0), totalLen: Number(row?.total_len ?? 0) };
}

interface PostingsDelta {
  /** Change of each term's document frequency. */
  df: Map<string, number>;
  /** Change of each term's count of postings that reach its floor (term-floors.ts). */
  above: Map<string, number>;
  /** Change of each store's total length. */
  length: Map<string, number>;
}

function addTo(map: Map<string, number>, key: string, by: number) {
  map.set(key, (map.get(key) ?? 0) + by);
}

/** Deletes the products' postings and returns what they counted for. */
async function removePostings(
  db: Db,
  keys: ProductKey[],
  floors: Map<string, number>,
  delta: PostingsDelta,
): Promise<void> {
  const [terms, lengths] = await Promise.all([
    queryRows<{ term: string; n: number | string; above: number | string }>(
      db,
      sql`SELECT sp.term, count(*) AS n, count(*) FILTER (WHERE ${reachesFloorSql(floors, 'sp')}) AS above
          FROM search_postings sp WHERE ${ofProducts(keys, { alias: 'sp' })}
          GROUP BY sp.term`,
    ),
    queryRows<{ store_id: string; len: number | string }>(
      db,
      sql`SELECT store_id, sum(doc_len)::float8 AS len FROM (
            SELECT DISTINCT store_id, product_id, doc_len FROM search_postings
            WHERE ${ofProducts(keys)}) d
          GROUP BY store_id`,
    ),
  ]);
  for (const { term, n, above } of terms) {
    addTo(delta.df, term, -Number(n));
    addTo(delta.above, term, -Number(above));
  }
  for (const { store_id, len } of lengths) addTo(delta.length, store_id, -Number(len));
  await db.execute(sql`DELETE FROM search_postings WHERE ${ofProducts(keys)}`);
}

/**
 * Brings search_terms (with the floors), search_store_stats and search_corpus_stats in line with
 * a change of postings. Terms are written in sorted order, so that concurrent indexers lock
 * shared terms in the same order.
 */
async function applyDelta(db: Db, stores: string[], delta: PostingsDelta): Promise<void> {
  // Every term whose postings were written or removed, counts changed or not: a product indexed
  // again keeps its terms' counts but may change their impacts, which cached postings hold.
  const touched = [...delta.df.keys()].sort();
  if (touched.length > 0) {
    await db.execute(sql`
      INSERT INTO search_terms (term, df, above, version)
      SELECT term, n, a, ${newCacheVersion()}::bigint
      FROM unnest(${textArray(touched)},
                  ${floatArray(touched.map((t) => delta.df.get(t)!))},
                  ${floatArray(touched.map((t) => delta.above.get(t) ?? 0))}) AS u(term, n, a)
      ON CONFLICT (term) DO UPDATE
        SET df = search_terms.df + excluded.df, above = search_terms.above + excluded.above,
            version = excluded.version`);
    await db.execute(sql`
      DELETE FROM search_terms WHERE term = ANY(${textArray(touched)}) AND df <= 0`);
    await refreshFloors(
      db,
      touched.filter((t) => delta.df.get(t) !== 0 || (delta.above.get(t) ?? 0) !== 0),
    );
  }
  // Counted apart from the update: on Citus products are distributed and this table is not.
  const counts = await queryRows<{ store_id: string; n: number | string }>(
    db,
    sql`SELECT store_id, count(*) AS n FROM products WHERE store_id = ANY(${textArray(stores)})
        GROUP BY store_id`,
  );
  const docs = new Map(counts.map((r) => [r.store_id, Number(r.n)]));
  await db.execute(sql`
    INSERT INTO search_store_stats (store_id, doc_count, total_len)
    SELECT id, n, greatest(len, 0) FROM unnest(${textArray(stores)},
      ${floatArray(stores.map((s) => docs.get(s) ?? 0))},
      ${floatArray(stores.map((s) => delta.length.get(s) ?? 0))}) AS u(id, n, len)
    ON CONFLICT (store_id) DO UPDATE
      SET doc_count = excluded.doc_count,
          total_len = greatest(search_store_stats.total_len + excluded.total_len, 0)`);
  // Locked first, in a statement of its own: the sums below then read every other indexer's
  // stores as committed, where one UPDATE waiting on the lock would write the sums it read before.
  await db.execute(sql`SELECT one FROM search_corpus_stats FOR UPDATE`);
  await db.execute(sql`
    UPDATE search_corpus_stats
    SET doc_count = s.n, total_len = s.len
    FROM (SELECT coalesce(sum(doc_count), 0)::float8 AS n, coalesce(sum(total_len), 0)::float8 AS len
          FROM search_store_stats) s`);
}

/**
 * Writes the postings of the products, and brings the global statistics
 * (search_terms, search_store_stats) up to date in the same transaction. Each posting's impact
 * uses the average length of the moment: it only orders a term's postings for retrieval, whose
 * scores are computed with the statistics current at search time.
 */
export async function indexLexical(db: Db, items: IndexableProduct[]): Promise<void> {
  if (items.length === 0) return;
  const keys = items.map((p) => ({ storeId: p.storeId, productId: p.id }));
  const terms = items.map(productTerms);
  const stores = [...new Set(items.map((p) => p.storeId))];
  await db.transaction(async (tx) => {
    const conn = tx as unknown as Db;
    const delta: PostingsDelta = { df: new Map(), above: new Map(), length: new Map() };
    const totals = await corpusTotals(conn);
    const floors = await readFloors(conn);
    await removePostings(conn, keys, floors, delta);
    const batchLen = terms.reduce((sum, t) => sum + t.length, 0);
    // The first batch of an empty index has no average yet but its own.
    const avgdl = Math.max(
      totals.docCount > 0 ? totals.totalLen / totals.docCount : batchLen / items.length,
      1e-9,
    );
    const rows = {
      store: [] as string[],
      product: [] as number[],
      term: [] as string[],
      tf: [] as number[],
      len: [] as number[],
      impact: [] as number[],
    };
    items.forEach((p, i) => {
      const { tf, length } = terms[i]!;
      addTo(delta.length, p.storeId, length);
      for (const [term, f] of tf) {
        rows.store.push(p.storeId);
        rows.product.push(p.id);
        rows.term.push(term);
        rows.tf.push(f);
        rows.len.push(length);
        const termImpact = impact(f, length, avgdl);
        rows.impact.push(termImpact);
        addTo(delta.df, term, 1);
        if (reachesFloor(floors, term, termImpact)) addTo(delta.above, term, 1);
      }
    });
    if (rows.term.length > 0) {
      await conn.execute(sql`
        INSERT INTO search_postings (store_id, product_id, term, tf, doc_len, impact)
        SELECT * FROM unnest(${textArray(rows.store)}, ${bigintArray(rows.product)},
                             ${textArray(rows.term)}, ${floatArray(rows.tf)},
                             ${floatArray(rows.len)}, ${floatArray(rows.impact)})`);
    }
    await applyDelta(conn, stores, delta);
  });
}

/**
 * Takes products out of the lexical index before they are deleted, so that the global
 * statistics lose what they counted for.
 */
export async function unindexLexical(db: Db, storeId: string, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const delta: PostingsDelta = { df: new Map(), above: new Map(), length: new Map() };
  const keys = ids.map((productId) => ({ storeId, productId }));
  await removePostings(db, keys, await readFloors(db), delta);
  await applyDelta(db, [storeId], delta);
}
