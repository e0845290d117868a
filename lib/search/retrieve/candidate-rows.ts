import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryPrepared } from '../../db/prepared';
import { bigintArray, textArray } from '../../sql/arrays';
import { packedRows, unpackRows } from '../../sql/packed-rows';
import type { QueryTerm } from '../query/query-terms';
import type { PickedCandidates } from './cached-lexical-candidates';
import type { RetrievalRequest } from './request';
import { inScope } from './scope-sql';
import { nearestCte, similarities, type QueryVectorForm } from './vector-sql';

/**
 * Where the statement's candidates come from: gathered inside it (the lexical CTE `lex` given
 * here, united with the nearest neighbours of the query's vectors, those of its text vector
 * found before the statement when `textNeighbours` holds them), or given as constants, found
 * before the statement (the Citus two-step plan).
 */
export type CandidateSource =
  { lexicalCte: SQL; textNeighbours?: PickedCandidates } | { given: PickedCandidates };

/** The columns of a candidate row, in the order of each packed array. */
const ROW_COLUMNS = [
  'kind',
  'store_id',
  'product_id',
  'available',
  'title',
  'term',
  'tf',
  'doc_len',
  'text_cosine',
  'image_cosine',
  'style_cosine',
] as const;

/** A cosine of a zero vector is NaN, which JSON carries as the string "NaN": hence Number(). */
export interface CandidateRow {
  kind: number;
  store_id: string;
  product_id: number;
  available: boolean | null;
  title: string | null;
  term: string | null;
  tf: number | null;
  doc_len: number | null;
  text_cosine: number | string | null;
  image_cosine: number | string | null;
  style_cosine: number | string | null;
}

/**
 * One statement: the candidates (gathered or given), then one row per candidate with its vector
 * similarities (kind 0), followed by one row per posting of `postingTerms` that the candidate
 * holds (kind 1), from which scoreCandidates computes exact BM25 with the global statistics.
 * Every catalogue table is joined on (store_id, product id) and filtered by the scope, so that
 * Citus runs each part inside the shards, and routes a one-store search to the one shard holding
 * the store. The postings come back as rows rather than as a grouped join: a grouped subquery
 * joined to the candidates was planned as a nested loop over it on every engine but a server's.
 * The rows travel packed as one JSON text (lib/sql/packed-rows.ts): as about 300 rows of eleven
 * columns they took about 3 ms of an all-stores search in PGlite and 2 ms with node-postgres.
 */
export function candidateRowsQuery(
  req: RetrievalRequest,
  form: QueryVectorForm,
  source: CandidateSource,
  postingTerms: readonly QueryTerm[],
): SQL {
  const sims = similarities(req, form);
  // Given candidates are read where they are used, not through a CTE: on Citus a CTE read twice
  // is a coordinator step of its own, and a function in FROM goes to the workers with the rest.
  const c =
    'given' in source
      ? sql`unnest(${textArray(source.given.storeIds)}, ${bigintArray(source.given.productIds)})
        AS c(store_id, product_id)`
      : sql`c`;
  const gathered =
    'given' in source
      ? sql``
      : sql`${source.lexicalCte},
    ${nearestCte(req, form, 'vec', 'text', req.text, source.textNeighbours)},
    ${nearestCte(req, form, 'img', 'image', req.image)},
    c AS (SELECT store_id, product_id FROM lex UNION SELECT store_id, product_id FROM vec
          UNION SELECT store_id, product_id FROM img)
    ${sims.text.cte} ${sims.image.cte} ${sims.style.cte},`;
  const postings =
    postingTerms.length > 0
      ? sql`UNION ALL
      SELECT 1, sp.store_id, sp.product_id::float8, NULL, NULL, sp.term, sp.tf::float8,
             sp.doc_len::float8, NULL, NULL, NULL
      FROM search_postings sp
      WHERE ${inScope(req.scope, 'sp')}
        AND sp.term = ANY(${textArray(postingTerms.map((t) => t.term))})
        AND (sp.store_id, sp.product_id) IN (SELECT c.store_id, c.product_id FROM ${c})`
      : sql``;
  return sql`
    WITH ${gathered}
    r AS (
    SELECT 0 AS kind, p.store_id, p.id::float8 AS product_id, p.available, p.title,
           NULL::text AS term, NULL::float8 AS tf, NULL::float8 AS doc_len,
           ${sims.text.value} AS text_cosine,
           ${sims.image.value} AS image_cosine,
           ${sims.style.value} AS style_cosine
    FROM products p
    JOIN ${c} ON c.store_id = p.store_id AND c.product_id = p.id
    ${sims.text.join} ${sims.image.join} ${sims.style.join}
    WHERE ${inScope(req.scope, 'p')}
    ${postings})
    SELECT ${packedRows(ROW_COLUMNS, { alias: 'r' })}::text AS rows
    FROM r`;
}

/** Runs candidateRowsQuery's statement and unpacks its rows. */
export async function readCandidateRows(db: Db, statement: SQL): Promise<CandidateRow[]> {
  const [packed] = await queryPrepared<{ rows: string | null }>(db, statement);
  return unpackRows<CandidateRow>(packed?.rows, ROW_COLUMNS);
}
