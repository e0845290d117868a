import { sql, type SQL } from 'drizzle-orm';
import { cosineQueryParam, indexPredicate, typedEmbedding } from '../../embeddings/vector-index';
import { bigintArray, textArray } from '../../sql/arrays';
import type { PickedCandidates } from './cached-lexical-candidates';
import type { Engine } from './engine';
import type { RetrievalRequest, VectorQuery } from './request';
import { inScope, limit, variantFilter } from './scope-sql';

/**
 * A store at most this large is searched by vector exactly, from the app's cache of its vectors
 * (store-vectors-cache.ts) or by a scan of its own rows: an HNSW walk filtered to one small store
 * among many would have to pass over most of the graph.
 */
export const EXACT_VECTOR_SCAN_MAX = 20_000;

/**
 * How the statement carries its query vectors:
 * - `shared` (embedded PGlite): each as a one-row CTE that every use reads. pgvector parses a
 *   vector's text with the C library's strtof, slow in PGlite's WebAssembly (cosineQueryParam),
 *   and a parameter would be parsed again wherever it appears. PostgreSQL walks the HNSW index for
 *   an ORDER BY against a scalar subquery as it does for a parameter.
 * - `inline` (a server): a parameter at each use. Citus runs a CTE as a distributed step of its
 *   own, an intermediate result sent to every worker before the search: 2 to 4 ms of an
 *   all-stores search. A server parses the vector in microseconds.
 */
export type QueryVectorForm = 'shared' | 'inline';

type VectorKind = 'text' | 'image';

function queryVector(name: string, q: VectorQuery, vector: number[]): SQL {
  return sql`${sql.raw(name)} AS MATERIALIZED (SELECT ${cosineQueryParam(vector, q.dimensions)} AS v)`;
}

/**
 * The vector's nearest neighbours in scope, nearest first: the body of nearestCte, or a
 * statement of its own (inline, with no `${name}_q` to read).
 */
function nearestSelect(
  req: RetrievalRequest,
  form: QueryVectorForm,
  name: string,
  kind: VectorKind,
  q: VectorQuery,
): SQL {
  const filter = variantFilter(req, 'pe');
  const against =
    form === 'inline'
      ? cosineQueryParam(q.vector, q.dimensions)
      : sql`(SELECT v FROM ${sql.raw(`${name}_q`)})`;
  const distance = sql`${typedEmbedding(q.dimensions)} <=> ${against}`;
  const where = sql`${indexPredicate(kind, q.modelId)} AND ${inScope(req.scope, 'pe')}
    ${filter ? sql`AND ${filter}` : sql``}`;
  // A small store is scanned whole (exact); OFFSET 0 keeps the planner from the HNSW index.
  const exact = 'storeId' in req.scope && req.scope.storeDocs <= EXACT_VECTOR_SCAN_MAX;
  const rows = exact
    ? sql`(SELECT * FROM product_embeddings pe WHERE ${where} OFFSET 0) pe`
    : sql`product_embeddings pe`;
  return sql`SELECT pe.store_id, pe.product_id, 1 - (${distance}) AS cos
    FROM ${rows} ${exact ? sql`` : sql`WHERE ${where}`}
    ORDER BY ${distance}
    LIMIT ${limit(req.vectorCandidates)}`;
}

/**
 * CTE `name`, the vector's nearest neighbours in scope (or `given`, found before the statement),
 * after its CTE `${name}_q` if shared, which the candidates' cosines read.
 */
export function nearestCte(
  req: RetrievalRequest,
  form: QueryVectorForm,
  name: string,
  kind: VectorKind,
  q?: VectorQuery,
  given?: PickedCandidates,
): SQL {
  if (!q) {
    return sql`${sql.raw(name)} AS (SELECT NULL::text AS store_id, NULL::bigint AS product_id,
      NULL::float8 AS cos WHERE false)`;
  }
  const neighbours = given
    ? sql`SELECT * FROM unnest(${textArray(given.storeIds)}, ${bigintArray(given.productIds)})
        AS n(store_id, product_id)`
    : nearestSelect(req, form, name, kind, q);
  return sql`${form === 'shared' ? sql`${queryVector(`${name}_q`, q, q.vector)},` : sql``}
    ${sql.raw(name)} AS (${neighbours})`;
}

/** The vector's nearest neighbours in scope as a statement of its own (the Citus two-step plan). */
export function neighboursQuery(req: RetrievalRequest, kind: VectorKind, q: VectorQuery): SQL {
  return nearestSelect(req, 'inline', kind, kind, q);
}

/** A candidate's cosine against one vector: a CTE it needs, the value, and the join that reads it. */
export interface Similarity {
  cte: SQL;
  value: SQL;
  join: SQL;
}

/**
 * One candidate's cosine against a vector: the query's own (`vectorCte`, nearestCte's CTE of it)
 * or another one (its own CTE), or the vector itself when inline. The join is by primary key and
 * carries the store, so that on Citus it stays inside each shard.
 */
export function similarity(
  req: RetrievalRequest,
  form: QueryVectorForm,
  alias: string,
  kind: VectorKind,
  q: VectorQuery | undefined,
  vector: number[] | undefined,
  vectorCte?: string,
): Similarity {
  if (!q || !vector) return { cte: sql``, value: sql`NULL::float8`, join: sql`` };
  const a = sql.raw(alias);
  const qv = sql.raw(vectorCte ?? `${alias}_q`);
  const inline = form === 'inline';
  const against = inline ? cosineQueryParam(vector, q.dimensions) : sql`${qv}.v`;
  return {
    cte: inline || vectorCte ? sql`` : sql`, ${queryVector(`${alias}_q`, q, vector)}`,
    value: sql`1 - (${typedEmbedding(q.dimensions, alias)} <=> ${against})`,
    join: sql`${inline ? sql`` : sql`CROSS JOIN ${qv}`}
      LEFT JOIN product_embeddings ${a}
        ON ${a}.store_id = p.store_id AND ${a}.product_id = p.id
       AND ${indexPredicate(kind, q.modelId, alias)} AND ${inScope(req.scope, alias)}`,
  };
}

/** The three cosines every candidate row carries: query text, query image, profile style. */
export function similarities(req: RetrievalRequest, form: QueryVectorForm) {
  return {
    text: similarity(req, form, 'te', 'text', req.text, req.text?.vector, 'vec_q'),
    image: similarity(req, form, 'ie', 'image', req.image, req.image?.vector, 'img_q'),
    style: similarity(req, form, 'se', 'text', req.text, req.style),
  };
}

/** The form that costs least on the engine (see QueryVectorForm). */
export function vectorFormOn(engine: Engine): QueryVectorForm {
  return engine === 'embedded' ? 'shared' : 'inline';
}
