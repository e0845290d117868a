import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { queryRows } from '../db/client';
import type { LexicalScores } from './lexical-snapshot';
import { bigintArray, textArray } from './sql-arrays';
import { indexPredicate, typedEmbedding, vectorParam } from './vector-index';

/**
 * HNSW search breadth. Iterative scanning (relaxed order) keeps walking the graph past rows the
 * store or price filter rejects, so a filtered search still fills its candidate list.
 */
const HNSW_EF_SEARCH = 100;

export interface VectorQuery {
  modelId: string;
  dimensions: number;
  vector: number[];
}

export interface CandidateFilters {
  priceMin?: number;
  priceMax?: number;
  /** Platform variant ids (variants.external_id) to leave out. */
  excludeVariantIds?: string[];
}

export interface RetrievalRequest extends CandidateFilters {
  storeId: string;
  /** The query's lexical scores (lib/search/lexical-snapshot.ts); absent in vector-only mode. */
  lexical?: LexicalScores;
  /** Text query vector: candidates from its HNSW index, and a similarity for every candidate. */
  text?: VectorQuery;
  /** Image query vector, compared with products' image embeddings of its model. */
  image?: VectorQuery;
  /** The profile's style vector (text model), compared with products' text embeddings. */
  style?: number[];
  lexicalCandidates: number;
  vectorCandidates: number;
}

export interface Candidate {
  productId: number;
  available: boolean;
  /**
   * BM25 over the query terms divided by the sum of their IDF (0 when nothing matches): about 1
   * for a product holding every term once at average length, more for short exact titles.
   */
  bm25: number;
  /** Share of the query's IDF mass among the terms the product holds: 0..1. */
  coverage: number;
  /** Cosine similarities (null when that evidence is absent for the product). */
  textCosine: number | null;
  imageCosine: number | null;
  styleCosine: number | null;
}

function variantFilter(f: CandidateFilters, productRef: SQL): SQL | undefined {
  const parts: SQL[] = [];
  if (f.priceMin !== undefined) parts.push(sql`v.price >= ${f.priceMin}`);
  if (f.priceMax !== undefined) parts.push(sql`v.price <= ${f.priceMax}`);
  if (f.excludeVariantIds?.length) {
    parts.push(sql`v.external_id <> ALL(${textArray(f.excludeVariantIds)})`);
  }
  if (parts.length === 0) return undefined;
  return sql`EXISTS (SELECT 1 FROM variants v WHERE v.product_id = ${productRef} AND ${sql.join(parts, sql` AND `)})`;
}

/**
 * One statement: the best lexical matches that pass the filters and the nearest neighbours from
 * the HNSW index inside the store and the filters, then every vector signal for their union;
 * BM25 comes from the query's lexical scores.
 */
export async function retrieveCandidates(db: Db, req: RetrievalRequest): Promise<Candidate[]> {
  const lexFilter = variantFilter(req, sql.raw('l.product_id'));
  const vecFilter = variantFilter(req, sql.raw('pe.product_id'));
  const text = req.text;
  // Unfiltered, the first matches are the candidates; filtered, the database walks the whole
  // ranked list until enough pass, so a narrow filter still finds its products.
  const ranked = req.lexical?.ranked ?? [];
  const lex = lexFilter
    ? sql`SELECT l.product_id FROM unnest(${bigintArray(ranked)}) WITH ORDINALITY AS l(product_id, ord)
          WHERE ${lexFilter} ORDER BY l.ord LIMIT ${req.lexicalCandidates}`
    : sql`SELECT unnest(${bigintArray(ranked.slice(0, req.lexicalCandidates))}) AS product_id`;

  const nearest = (name: string, kind: 'text' | 'image', q: VectorQuery | undefined) =>
    q
      ? sql`${sql.raw(name)} AS (
          SELECT pe.product_id,
                 1 - (${typedEmbedding(q.dimensions)} <=> ${vectorParam(q.vector, q.dimensions)}) AS cos
          FROM product_embeddings pe
          JOIN products p ON p.id = pe.product_id AND p.store_id = ${req.storeId}
          WHERE ${indexPredicate(kind, q.modelId)} ${vecFilter ? sql`AND ${vecFilter}` : sql``}
          ORDER BY ${typedEmbedding(q.dimensions)} <=> ${vectorParam(q.vector, q.dimensions)}
          LIMIT ${req.vectorCandidates})`
      : sql`${sql.raw(name)} AS (SELECT NULL::bigint AS product_id, NULL::float8 AS cos WHERE false)`;

  // Vectors compared per row come from one-row CTEs: a vector literal written in a correlated
  // subquery would be parsed again for every candidate. The lateral lookups go by primary key,
  // one per candidate, whatever the planner's statistics say; LIMIT 1 (the key is unique) stops
  // the planner from flattening them into a join over every embedding of the model.
  const similarity = (
    alias: string,
    kind: 'text' | 'image',
    q: VectorQuery | undefined,
    vector?: number[],
  ) =>
    q && vector
      ? {
          cte: sql`, ${sql.raw(`${alias}_q`)} AS MATERIALIZED (SELECT ${vectorParam(vector, q.dimensions)} AS v)`,
          value: sql.raw(`${alias}.cos`),
          join: sql`LEFT JOIN LATERAL (
                      SELECT 1 - (${typedEmbedding(q.dimensions, alias)} <=> ${sql.raw(`${alias}_q`)}.v) AS cos
                      FROM product_embeddings ${sql.raw(alias)}, ${sql.raw(`${alias}_q`)}
                      WHERE ${sql.raw(alias)}.product_id = c.product_id
                        AND ${indexPredicate(kind, q.modelId, alias)}
                      LIMIT 1) ${sql.raw(alias)} ON true`,
        }
      : { cte: sql``, value: sql`NULL::float8`, join: sql`` };
  const textSim = similarity('te', 'text', text, text?.vector);
  const imageSim = similarity('ie', 'image', req.image, req.image?.vector);
  const styleSim = similarity('se', 'text', text, req.style);

  const query = sql`
    WITH lex AS (${lex}),
    ${nearest('vec', 'text', text)},
    ${nearest('img', 'image', req.image)},
    c AS (SELECT product_id FROM lex UNION SELECT product_id FROM vec
          UNION SELECT product_id FROM img)
    ${textSim.cte} ${imageSim.cte} ${styleSim.cte}
    SELECT c.product_id::float8 AS product_id,
           p.available,
           coalesce(vec.cos, ${textSim.value}) AS text_cosine,
           coalesce(img.cos, ${imageSim.value}) AS image_cosine,
           ${styleSim.value} AS style_cosine
    FROM c
    JOIN products p ON p.id = c.product_id AND p.store_id = ${req.storeId}
    LEFT JOIN vec ON vec.product_id = c.product_id
    LEFT JOIN img ON img.product_id = c.product_id
    ${textSim.join} ${imageSim.join} ${styleSim.join}`;

  // Session settings rather than SET LOCAL in a transaction: over the wire to a PGlite socket
  // server every connection shares one session, where concurrent transactions would collide.
  // The values are fixed, so concurrent searches setting them never disagree.
  if (text || req.image) {
    await db.execute(sql.raw(`SET hnsw.ef_search = ${HNSW_EF_SEARCH}`));
    await db.execute(sql.raw(`SET hnsw.iterative_scan = relaxed_order`));
  }
  const rows = await queryRows<{
    product_id: number;
    available: boolean;
    text_cosine: number | null;
    image_cosine: number | null;
    style_cosine: number | null;
  }>(db, query);
  return rows.map((r) => {
    const productId = Number(r.product_id);
    const { bm25, coverage } = req.lexical?.of(productId) ?? { bm25: 0, coverage: 0 };
    return {
      productId,
      available: r.available,
      bm25,
      coverage,
      textCosine: r.text_cosine === null ? null : Number(r.text_cosine),
      imageCosine: r.image_cosine === null ? null : Number(r.image_cosine),
      styleCosine: r.style_cosine === null ? null : Number(r.style_cosine),
    };
  });
}
