import type { Db } from '../../../db/client';
import { queryPrepared } from '../../../db/prepared';
import type { PickedCandidates } from '../cached-lexical-candidates';
import type { Candidate } from '../candidate';
import { candidateRowsQuery, readCandidateRows } from '../candidate-rows';
import { lexicalPart, type RetrievalRequest } from '../request';
import { scoreCandidates } from '../score-candidates';
import { withRetrievalSettings } from '../search-settings';
import { neighboursQuery } from '../vector-sql';
import { cachedLexical } from './cached-lexical';

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
 * Every store in scope on Citus, lexical candidates from the postings cache: picked here, then
 * each query vector's neighbours in a statement of its own, then the candidates' rows with the
 * candidates as constants and the vectors inline. In one statement the union of candidates and
 * neighbours was a coordinator step, its result sent to every worker before the rows could be
 * read: 21 against 17 ms at the median. Elsewhere the second round trip costs more than it
 * saves: 7.7 against 8.7 ms on PostgreSQL, 8.9 against 10.5 on PGlite (docs/bench-log.md).
 */
export async function citusTwoStep(db: Db, req: RetrievalRequest): Promise<Candidate[]> {
  const lex = lexicalPart(req)!;
  const cached = await cachedLexical(db, req, lex);
  const rows = await withRetrievalSettings(db, req, async (session) => {
    const given = await withNeighbours(session, req, cached.picked);
    return readCandidateRows(
      session,
      candidateRowsQuery(req, 'inline', { given }, cached.postingTerms),
    );
  });
  return scoreCandidates(rows, lex, cached.lists);
}
