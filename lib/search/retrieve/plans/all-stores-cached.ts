import type { Db } from '../../../db/client';
import type { Candidate } from '../candidate';
import { candidateRowsQuery, readCandidateRows } from '../candidate-rows';
import type { Engine } from '../engine';
import { pickedCandidatesCte } from '../lexical-sql';
import { lexicalPart, type RetrievalRequest } from '../request';
import { scoreCandidates } from '../score-candidates';
import { withRetrievalSettings } from '../search-settings';
import { vectorFormOn } from '../vector-sql';
import { cachedLexical } from './cached-lexical';

/**
 * Every store in scope, lexical candidates from the postings cache: they are picked here from
 * the terms' cached postings, then one statement unites them with the nearest neighbours of the
 * query's vectors and reads every candidate's row with its cosines and its postings of the terms
 * the cache holds only in part; the other terms' postings come from the cache.
 */
export async function allStoresCached(
  db: Db,
  req: RetrievalRequest,
  engine: Engine,
): Promise<Candidate[]> {
  const lex = lexicalPart(req)!;
  const cached = await cachedLexical(db, req, lex);
  const lexicalCte = pickedCandidatesCte(cached.picked);
  const form = vectorFormOn(engine);
  const statement = candidateRowsQuery(req, form, { lexicalCte }, cached.postingTerms);
  const rows = await withRetrievalSettings(db, req, (session) =>
    readCandidateRows(session, statement),
  );
  return scoreCandidates(rows, lex, cached.lists);
}
