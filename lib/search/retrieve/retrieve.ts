import { sql, type SQL } from 'drizzle-orm';
import { isCitus } from '../../db/citus';
import { isEmbedded, type Db } from '../../db/client';
import { queryPrepared } from '../../db/prepared';
import { documentScore } from '../rank/bm25';
import { pickLexicalCandidates, type PickedCandidates } from './cached-lexical-candidates';
import type { LexicalQuery, QueryTerm } from '../query/query-terms';
import { BM25_FULL, COVERAGE_SHARE } from '../rank/score';
import { withSearchSettings } from './search-settings';
import { bigintArray, textArray } from '../../sql/arrays';
import { aboveFloor, TERM_POSTINGS_READ } from '../index/term-floors';
import { postingIndex, termPostings, type TermPostings } from './term-postings-cache';
import { cosineQueryParam, indexPredicate, typedEmbedding } from '../../embeddings/vector-index';

/**
 * A store at most this large is searched by vector with an exact scan of its own rows: an HNSW
 * walk filtered to one small store among many would have to pass over most of the graph.
 */
const EXACT_VECTOR_SCAN_MAX = 20_000;

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

/**
 * Where a search looks: one store, or every store but those closed to the caller. The access
 * policy is a filter inside the one retrieval, not a loop over stores.
 */
export type SearchScope =
  { storeId: string; storeDocs: number } | { excludeStoreIds: readonly string[] };

export interface RetrievalRequest extends CandidateFilters {
  scope: SearchScope;
  /** The query's weighted terms and the corpus statistics; absent in vector-only mode. */
  lexical?: LexicalQuery;
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
  storeId: string;
  available: boolean;
  /**
   * BM25 over the query terms divided by the sum of their IDF (0 when nothing matches): about 1
   * for a product holding every term once at average length, more for short exact titles.
   */
  bm25: number;
  /** Share of the query's IDF mass among the terms the product holds: 0..1. */
  coverage: number;
  /** The query terms the product holds (its postings), in the query's order. */
  matched: string[];
  /** The title, for the ranker's features read from its text (phrase, proximity, length). */
  title: string;
  /** Cosine similarities (null when that evidence is absent for the product). */
  textCosine: number | null;
  imageCosine: number | null;
  styleCosine: number | null;
}

/**
 * A row count written into the statement rather than bound: the statement is prepared
 * (queryPrepared), and a generic plan knows a bound LIMIT only as a guess (a tenth of the rows),
 * for which it planned the neighbours' join as a scan of every product. The counts take a few
 * values, so the statement's texts stay few.
 */
function limit(count: number): SQL {
  return sql.raw(String(Math.max(0, Math.trunc(count))));
}

function inScope(scope: SearchScope, alias: string): SQL {
  const column = sql.raw(`${alias}.store_id`);
  if ('storeId' in scope) return sql`${column} = ${scope.storeId}`;
  if (scope.excludeStoreIds.length === 0) return sql`true`;
  return sql`${column} <> ALL(${textArray(scope.excludeStoreIds)})`;
}

/**
 * The filter on variants (price range, excluded ids) as an uncorrelated IN over the variants in
 * scope: Citus refuses a correlated subquery beside a CTE, and the set is computed once.
 */
function variantFilter(req: RetrievalRequest, alias: string): SQL | undefined {
  const parts: SQL[] = [];
  if (req.priceMin !== undefined) parts.push(sql`v.price >= ${req.priceMin}`);
  if (req.priceMax !== undefined) parts.push(sql`v.price <= ${req.priceMax}`);
  if (req.excludeVariantIds?.length) {
    parts.push(sql`v.external_id <> ALL(${textArray(req.excludeVariantIds)})`);
  }
  if (parts.length === 0) return undefined;
  return sql`(${sql.raw(`${alias}.store_id`)}, ${sql.raw(`${alias}.product_id`)}) IN (
    SELECT v.store_id, v.product_id FROM variants v
    WHERE ${inScope(req.scope, 'v')} AND ${sql.join(parts, sql` AND `)})`;
}

/** score.ts's lexicalSimilarity in SQL, over the sums of a product's postings. */
function lexicalSimilaritySql(bm25: SQL, matched: SQL, idfTotal: number): SQL {
  const total = Math.max(idfTotal, 1e-9);
  return sql`(${COVERAGE_SHARE} * least(1, ${matched} / ${total}::float8)
    + ${1 - COVERAGE_SHARE} * least(1, ${bm25} / ${total}::float8 / ${BM25_FULL}))`;
}

/**
 * One term's best postings in scope. In one store, its first TERM_POSTINGS_READ by impact (the
 * store's index order, so the read stops after them; on Citus the one shard holding the store
 * runs it). Across stores, those that reach the term's floor (term-floors.ts), which every shard
 * filters at once, where a LIMIT would take Citus a round trip to every shard for each term.
 */
function termRead(req: RetrievalRequest, term: QueryTerm): SQL {
  // Each read carries its term's weight, so that no join is needed to find it.
  const read = sql`SELECT sp.store_id, sp.product_id, ${term.weight}::float8 * sp.impact AS s,
             ${term.weight}::float8 AS w
      FROM search_postings sp
      WHERE sp.term = ${term.term} AND ${inScope(req.scope, 'sp')}`;
  if ('storeId' in req.scope) {
    return sql`(${read}
      ORDER BY sp.impact DESC NULLS LAST, sp.product_id LIMIT ${limit(TERM_POSTINGS_READ)})`;
  }
  return sql`(${read} AND ${aboveFloor(term.floor, 'sp')})`;
}

/**
 * The lexical candidates: for each term its best postings in scope by stored impact (termRead),
 * then the products they name, best lexical similarity over those postings first. The reads and
 * the ranking use only the impact index's own columns, so they are index-only scans. Impacts
 * carry the average length of the day they were indexed; they decide only who is a candidate.
 * Every candidate is then scored exactly, on all its postings of the query and the statistics of
 * the moment (scoreCandidates), so a product missing from a common term's best postings loses
 * that term's (small, low-IDF) part here only.
 */
function lexicalCandidates(req: RetrievalRequest, lex: LexicalQuery): SQL {
  const filter = variantFilter(req, 'g');
  const reads = lex.terms.map((t) => termRead(req, t));
  return sql`lex AS (
      SELECT g.store_id, g.product_id FROM (
        SELECT sp.store_id, sp.product_id, sum(sp.s) AS bm25, sum(sp.w) AS matched
        FROM (${sql.join(reads, sql` UNION ALL `)}) sp
        GROUP BY sp.store_id, sp.product_id) g
      ${filter ? sql`WHERE ${filter}` : sql``}
      ORDER BY ${lexicalSimilaritySql(sql.raw('g.bm25'), sql.raw('g.matched'), lex.idfTotal)} DESC,
               g.store_id COLLATE "C", g.product_id
      LIMIT ${limit(req.lexicalCandidates)})`;
}

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

function queryVector(name: string, q: VectorQuery, vector: number[]): SQL {
  return sql`${sql.raw(name)} AS MATERIALIZED (SELECT ${cosineQueryParam(vector, q.dimensions)} AS v)`;
}

/**
 * The vector's nearest neighbours in scope, nearest first: the body of nearest's CTE, or a
 * statement of its own (inline, with no `${name}_q` to read).
 */
function nearestSelect(
  req: RetrievalRequest,
  form: QueryVectorForm,
  name: string,
  kind: 'text' | 'image',
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

/** The vector's nearest neighbours in scope (CTE `name`), after its CTE `${name}_q` if shared. */
function nearest(
  req: RetrievalRequest,
  form: QueryVectorForm,
  name: string,
  kind: 'text' | 'image',
  q?: VectorQuery,
) {
  if (!q) {
    return sql`${sql.raw(name)} AS (SELECT NULL::text AS store_id, NULL::bigint AS product_id,
      NULL::float8 AS cos WHERE false)`;
  }
  return sql`${form === 'shared' ? sql`${queryVector(`${name}_q`, q, q.vector)},` : sql``}
    ${sql.raw(name)} AS (${nearestSelect(req, form, name, kind, q)})`;
}

/**
 * One candidate's cosine against a vector: the query's own (`vectorCte`, nearest's CTE of it) or
 * another one (its own CTE), or the vector itself when inline. The join is by primary key and
 * carries the store, so that on Citus it stays inside each shard.
 */
function similarity(
  req: RetrievalRequest,
  form: QueryVectorForm,
  alias: string,
  kind: 'text' | 'image',
  q: VectorQuery | undefined,
  vector: number[] | undefined,
  vectorCte?: string,
) {
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

/**
 * One statement over every store in scope: the best lexical matches, the nearest neighbours of
 * the query's text and image vectors, then for their union one row per candidate with its vector
 * similarities, followed by one row per posting of the query's terms that the candidate holds
 * (kind 1), from which scoreCandidates computes exact BM25 with the global statistics. Every
 * catalogue table is joined on (store_id, product id) and filtered by the scope, so that Citus runs
 * each part inside the shards, and routes a one-store search to the one shard holding the store.
 * The postings come back as rows rather than as a grouped join: a grouped subquery joined to the
 * candidates was planned as a nested loop over it on every engine but a server's. Those rows
 * travel as one JSON array of arrays (ROW_COLUMNS), parsed at once: as about 300 rows of eleven
 * columns, each field decoded apart by the driver, they took about 3 ms of an all-stores search
 * in PGlite and 2 ms with node-postgres. float8's text form is exact (shortest round trip), so
 * the numbers are the ones the rows carried. `cached`: the lexical candidates, when they were
 * taken from cached postings (cachedCandidates) rather than read here; the postings of the terms
 * whose whole list the cache holds are then taken from it too, and only the others read here.
 * `candidates`: every candidate, when they were gathered before the statement (the cached lexical
 * ones and the neighbours read apart, see retrieveCandidates); it then reads only their rows, with
 * the query vectors inline.
 */
export function retrievalQuery(
  req: RetrievalRequest,
  {
    cached,
    vectors: form = 'shared',
    candidates,
  }: { cached?: CachedLexical; vectors?: QueryVectorForm; candidates?: PickedCandidates } = {},
): SQL {
  const lex = req.lexical && req.lexical.terms.length > 0 ? req.lexical : undefined;
  const vectors = candidates ? 'inline' : form;
  const text = req.text;
  const textSim = similarity(req, vectors, 'te', 'text', text, text?.vector, 'vec_q');
  const imageSim = similarity(req, vectors, 'ie', 'image', req.image, req.image?.vector, 'img_q');
  const styleSim = similarity(req, vectors, 'se', 'text', text, req.style);
  const postingTerms = (lex?.terms ?? []).filter((_, i) => !cached?.lists[i]!.complete);
  const picked = cached?.picked;
  const lexical = picked
    ? sql`lex AS (SELECT * FROM unnest(${textArray(picked.storeIds)},
                                      ${bigintArray(picked.productIds)}) AS l(store_id, product_id))`
    : lex
      ? lexicalCandidates(req, lex)
      : sql`lex AS (SELECT NULL::text AS store_id, NULL::bigint AS product_id WHERE false)`;
  // Given candidates are read where they are used, not through a CTE: on Citus a CTE read twice
  // is a coordinator step of its own, and a function in FROM goes to the workers with the rest.
  const c = candidates
    ? sql`unnest(${textArray(candidates.storeIds)}, ${bigintArray(candidates.productIds)})
        AS c(store_id, product_id)`
    : sql`c`;
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
  const gathered = candidates
    ? sql``
    : sql`${lexical},
    ${nearest(req, vectors, 'vec', 'text', text)},
    ${nearest(req, vectors, 'img', 'image', req.image)},
    c AS (SELECT store_id, product_id FROM lex UNION SELECT store_id, product_id FROM vec
          UNION SELECT store_id, product_id FROM img)
    ${textSim.cte} ${imageSim.cte} ${styleSim.cte},`;

  return sql`
    WITH ${gathered}
    r AS (
    SELECT 0 AS kind, p.store_id, p.id::float8 AS product_id, p.available, p.title,
           NULL::text AS term, NULL::float8 AS tf, NULL::float8 AS doc_len,
           ${textSim.value} AS text_cosine,
           ${imageSim.value} AS image_cosine,
           ${styleSim.value} AS style_cosine
    FROM products p
    JOIN ${c} ON c.store_id = p.store_id AND c.product_id = p.id
    ${textSim.join} ${imageSim.join} ${styleSim.join}
    WHERE ${inScope(req.scope, 'p')}
    ${postings})
    SELECT json_agg(json_build_array(${sql.raw(ROW_COLUMNS.map((c) => `r.${c}`).join(', '))}))::text
      AS rows
    FROM r`;
}

/** The columns of a retrieval row, in the order of each packed array. */
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
interface RetrievalRow {
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

function unpackRows(packed: string | null | undefined): RetrievalRow[] {
  const arrays = JSON.parse(packed ?? '[]') as unknown[][];
  // A plain loop: Object.fromEntries over the columns took five times as long as the parse.
  return arrays.map((values) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < ROW_COLUMNS.length; i++) row[ROW_COLUMNS[i]!] = values[i];
    return row as unknown as RetrievalRow;
  });
}

interface HeldPosting {
  tf: number;
  docLen: number;
}

/**
 * The postings the statement read (rows of kind 1), by product id and term. Product ids are
 * unique across stores, so the id alone keys a candidate.
 */
function postingsRead(rows: RetrievalRow[]): Map<number, Map<string, HeldPosting>> {
  const read = new Map<number, Map<string, HeldPosting>>();
  for (const r of rows) {
    if (r.kind !== 1) continue;
    let held = read.get(r.product_id);
    if (!held) read.set(r.product_id, (held = new Map<string, HeldPosting>()));
    held.set(r.term!, { tf: Number(r.tf), docLen: Number(r.doc_len) });
  }
  return read;
}

/**
 * The candidates with their signals: BM25 summed over each candidate's postings in the query's
 * term order (so that every engine adds the same numbers in the same order), with the IDF-weighted
 * term weights and the average length of this query's statistics. A term whose whole list the
 * cache holds takes the candidate's posting from the list (the statement did not read it), the
 * others from the rows the statement read.
 */
function scoreCandidates(
  rows: RetrievalRow[],
  lexical: LexicalQuery | undefined,
  lists?: readonly TermPostings[],
): Candidate[] {
  const avgdl = lexical?.avgdl ?? 1;
  const terms = lexical?.terms ?? [];
  const read = postingsRead(rows);
  const candidates: Candidate[] = [];
  for (const r of rows) {
    if (r.kind !== 0) continue;
    const fromRows = read.get(r.product_id);
    const held = [];
    for (let t = 0; t < terms.length; t++) {
      const { term, weight } = terms[t]!;
      const list = lists?.[t];
      if (list?.complete) {
        const k = postingIndex(list, r.product_id);
        if (k >= 0) held.push({ term, weight, tf: list.tf[k]!, docLen: list.docLen[k]! });
        continue;
      }
      const posting = fromRows?.get(term);
      if (posting) held.push({ term, weight, ...posting });
    }
    const { bm25, coverage } = documentScore(held, avgdl, lexical?.idfTotal ?? 0);
    candidates.push({
      productId: r.product_id,
      storeId: r.store_id,
      available: Boolean(r.available),
      bm25,
      coverage,
      matched: held.map((h) => h.term),
      title: r.title ?? '',
      textCosine: r.text_cosine === null ? null : Number(r.text_cosine),
      imageCosine: r.image_cosine === null ? null : Number(r.image_cosine),
      styleCosine: r.style_cosine === null ? null : Number(r.style_cosine),
    });
  }
  return candidates;
}

/** An all-stores search's lexical candidates from the cache, and the terms' lists they came from. */
interface CachedLexical {
  picked: PickedCandidates;
  /** In the order of the query's terms. */
  lists: TermPostings[];
}

/**
 * An all-stores search's lexical candidates picked from the cached postings of its terms, when
 * it can take them from there: no variant filter (which SQL applies before the cut) and the cache
 * on. Summing a few thousand postings per term in the database was the largest part of an
 * all-stores search on the embedded engine (docs/bench-log.md).
 */
async function cachedCandidates(
  db: Db,
  req: RetrievalRequest,
  lex: LexicalQuery | undefined,
): Promise<CachedLexical | undefined> {
  if (!lex || 'storeId' in req.scope || variantFilter(req, 'g') || req.lexicalCandidates === 0) {
    return undefined;
  }
  const lists = await termPostings(db, lex.terms);
  if (!lists) return undefined;
  const picked = pickLexicalCandidates(
    lex,
    lists,
    req.scope.excludeStoreIds,
    req.lexicalCandidates,
  );
  return { picked, lists };
}

/** The vector's nearest neighbours in scope as a statement of its own (retrieveCandidates). */
export function neighboursQuery(
  req: RetrievalRequest,
  kind: 'text' | 'image',
  q: VectorQuery,
): SQL {
  return nearestSelect(req, 'inline', kind, kind, q);
}

/** The lexical candidates, then each query vector's nearest neighbours that are not among them. */
async function withNeighbours(
  db: Db,
  req: RetrievalRequest,
  lexical: PickedCandidates,
): Promise<PickedCandidates> {
  const storeIds = [...lexical.storeIds];
  const productIds = [...lexical.productIds];
  const met = new Set(productIds);
  const vectors = [
    ['text', req.text],
    ['image', req.image],
  ] as const;
  for (const [kind, q] of vectors) {
    if (!q) continue;
    const nearest = await queryPrepared<{ store_id: string; product_id: string }>(
      db,
      neighboursQuery(req, kind, q),
    );
    for (const row of nearest) {
      const id = Number(row.product_id);
      if (met.has(id)) continue;
      met.add(id);
      storeIds.push(row.store_id);
      productIds.push(id);
    }
  }
  return { storeIds, productIds };
}

/**
 * The candidates and their signals (retrievalQuery), with the HNSW settings of this search. On
 * Citus (`neighboursApart`, by default when the database is a Citus coordinator), an all-stores
 * search whose lexical candidates came from the cache reads its neighbours first, in a statement
 * of their own, then its candidates' rows with the candidates as constants. In one statement the
 * union of the two was a coordinator step, its result sent to every worker before the rows could
 * be read: 21 against 17 ms at the median. Elsewhere the second round trip costs more than it
 * saves: 7.7 against 8.7 ms on PostgreSQL, 8.9 against 10.5 on PGlite, where each statement parses
 * the query vector again (docs/bench-log.md).
 */
export async function retrieveCandidates(
  db: Db,
  req: RetrievalRequest,
  { neighboursApart }: { neighboursApart?: boolean } = {},
): Promise<Candidate[]> {
  const lexical = req.lexical && req.lexical.terms.length > 0 ? req.lexical : undefined;
  const cached = await cachedCandidates(db, req, lexical);
  const apart = cached !== undefined && (neighboursApart ?? (await isCitus(db)));
  const vectors = isEmbedded(db) ? 'shared' : 'inline';
  const read = async (session: Db) => {
    const candidates = apart ? await withNeighbours(session, req, cached.picked) : undefined;
    return queryPrepared<{ rows: string | null }>(
      session,
      retrievalQuery(req, { cached, vectors, candidates }),
    );
  };
  const [packed] = req.text || req.image ? await withSearchSettings(db, read) : await read(db);
  return scoreCandidates(unpackRows(packed?.rows), lexical, cached?.lists);
}
