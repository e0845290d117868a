import { sql, type SQL } from 'drizzle-orm';
import { bigintArray, textArray } from '../../sql/arrays';
import { aboveFloor, TERM_POSTINGS_READ } from '../index/term-floors';
import type { LexicalQuery, QueryTerm } from '../query/query-terms';
import { sqlArithmetic } from '../rank/arithmetic';
import { lexicalSimilarityOf } from '../rank/score';
import type { PickedCandidates } from './cached-lexical-candidates';
import type { RetrievalRequest } from './request';
import { inScope, limit, variantFilter } from './scope-sql';

/** Which of one term's postings the lexical candidates are chosen from. */
export type TermPostingsRead = (req: RetrievalRequest, term: QueryTerm) => SQL;

/** One term's postings in scope, each carrying its term's weight so that no join is needed. */
function weightedPostings(req: RetrievalRequest, term: QueryTerm): SQL {
  return sql`SELECT sp.store_id, sp.product_id, ${term.weight}::float8 * sp.impact AS s,
             ${term.weight}::float8 AS w
      FROM search_postings sp
      WHERE sp.term = ${term.term} AND ${inScope(req.scope, 'sp')}`;
}

/**
 * In one store: the term's first TERM_POSTINGS_READ postings by impact (the store's index order,
 * so the read stops after them; on Citus the one shard holding the store runs it).
 */
export const bestPostingsOfStore: TermPostingsRead = (req, term) =>
  sql`(${weightedPostings(req, term)}
      ORDER BY sp.impact DESC NULLS LAST, sp.product_id LIMIT ${limit(TERM_POSTINGS_READ)})`;

/**
 * Across stores: the postings that reach the term's floor (term-floors.ts), which every shard
 * filters at once, where a LIMIT would take Citus a round trip to every shard for each term.
 */
export const postingsFromFloor: TermPostingsRead = (req, term) =>
  sql`(${weightedPostings(req, term)} AND ${aboveFloor(term.floor, 'sp')})`;

/**
 * CTE `lex`, the lexical candidates: for each term its best postings in scope by stored impact,
 * then the products they name, best lexical similarity over those postings first. The reads and
 * the ranking use only the impact index's own columns, so they are index-only scans. Impacts
 * carry the average length of the day they were indexed; they decide only who is a candidate.
 * Every candidate is then scored exactly, on all its postings of the query and the statistics of
 * the moment (scoreCandidates), so a product missing from a common term's best postings loses
 * that term's (small, low-IDF) part here only.
 */
export function lexicalCandidatesCte(
  req: RetrievalRequest,
  lex: LexicalQuery,
  read: TermPostingsRead,
): SQL {
  const filter = variantFilter(req, 'g');
  const reads = lex.terms.map((t) => read(req, t));
  const total = sqlArithmetic.constant(Math.max(lex.idfTotal, 1e-9));
  const similarity = lexicalSimilarityOf(
    sqlArithmetic,
    sqlArithmetic.over(sql.raw('g.matched'), total),
    sqlArithmetic.over(sql.raw('g.bm25'), total),
  );
  return sql`lex AS (
      SELECT g.store_id, g.product_id FROM (
        SELECT sp.store_id, sp.product_id, sum(sp.s) AS bm25, sum(sp.w) AS matched
        FROM (${sql.join(reads, sql` UNION ALL `)}) sp
        GROUP BY sp.store_id, sp.product_id) g
      ${filter ? sql`WHERE ${filter}` : sql``}
      ORDER BY ${similarity} DESC, g.store_id COLLATE "C", g.product_id
      LIMIT ${limit(req.lexicalCandidates)})`;
}

/** CTE `lex` holding candidates picked before the statement (from the postings cache). */
export function pickedCandidatesCte(picked: PickedCandidates): SQL {
  return sql`lex AS (SELECT * FROM unnest(${textArray(picked.storeIds)},
                                      ${bigintArray(picked.productIds)}) AS l(store_id, product_id))`;
}

/** CTE `lex` of a search by vector alone. */
export const NO_LEXICAL_CTE = sql`lex AS (SELECT NULL::text AS store_id, NULL::bigint AS product_id WHERE false)`;
